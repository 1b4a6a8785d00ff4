// Parsing of --set lists and ranges, the product of points, per-run seeds and shards.
#include "app/sweep/sweep_plan.h"

#include <gtest/gtest.h>

#include <set>

namespace mpsim {
namespace {

using Values = std::vector<std::string>;

Values Parse(const std::string& arg) {
  SweepParam p;
  std::string error;
  EXPECT_TRUE(ParseSweepParam(arg, &p, &error)) << error;
  return p.values;
}

std::string ParseError(const std::string& arg) {
  SweepParam p;
  std::string error;
  EXPECT_FALSE(ParseSweepParam(arg, &p, &error)) << arg;
  return error;
}

TEST(SweepPlan, ListsKeepYamlListsWhole) {
  EXPECT_EQ(Parse("a.b=1,2,3"), (Values{"1", "2", "3"}));
  EXPECT_EQ(Parse("a=[x, y],{k: v}, z"), (Values{"[x, y]", "{k: v}", "z"}));
  EXPECT_EQ(Parse("a=45s,2m"), (Values{"45s", "2m"}));
}

TEST(SweepPlan, LinearAndLogRanges) {
  EXPECT_EQ(Parse("r=100..500:100"), (Values{"100", "200", "300", "400", "500"}));
  EXPECT_EQ(Parse("r=100..450:100"), (Values{"100", "200", "300", "400"}));
  EXPECT_EQ(Parse("p=0..0.3:0.1"), (Values{"0", "0.1", "0.2", "0.3"}));
  EXPECT_EQ(Parse("r=100..10000:x10"), (Values{"100", "1000", "10000"}));
  EXPECT_EQ(Parse("r=1..10:x1.5"), (Values{"1", "2", "3", "5", "8"}));  // rounded, no repeats
  EXPECT_EQ(Parse("r=5,100..200:100"), (Values{"5", "100", "200"}));
}

TEST(SweepPlan, NumericViewForFits) {
  SweepParam p;
  std::string error;
  ASSERT_TRUE(ParseSweepParam("d=500ms,2s,3", &p, &error));
  ASSERT_TRUE(p.numeric.has_value());
  EXPECT_EQ(*p.numeric, (std::vector<double>{0.5, 2, 3}));
  ASSERT_TRUE(ParseSweepParam("v=v1.30.0,v1.31.0", &p, &error));
  EXPECT_FALSE(p.numeric.has_value());
}

TEST(SweepPlan, BadInputSaysWhatIsWrong) {
  EXPECT_NE(ParseError("novalues").find("expected PATH=V1,V2"), std::string::npos);
  EXPECT_NE(ParseError("a=1,,2").find("empty value"), std::string::npos);
  EXPECT_NE(ParseError("a=1..10").find("needs a step"), std::string::npos);
  EXPECT_NE(ParseError("a=10..1:1").find("ends before it starts"), std::string::npos);
  EXPECT_NE(ParseError("a=1..10:0").find("step must be above 0"), std::string::npos);
  EXPECT_NE(ParseError("a=0..10:x2").find("factor above 1"), std::string::npos);
  EXPECT_NE(ParseError("a=x..y:1").find("expected numbers"), std::string::npos);
  EXPECT_NE(ParseError("a=1..100000:1").find("more than 10000"), std::string::npos);
  EXPECT_EQ(ParseError("a=1,,2").rfind("--set a=1,,2: ", 0), 0u);
}

TEST(SweepPlan, ShardSyntax) {
  size_t i = 9, n = 9;
  std::string error;
  EXPECT_TRUE(ParseShard("1/3", &i, &n, &error));
  EXPECT_EQ(i, 1u);
  EXPECT_EQ(n, 3u);
  for (const char* bad : {"3/3", "-1/2", "1", "a/b", "0/0", "1/2/3"}) {
    EXPECT_FALSE(ParseShard(bad, &i, &n, &error)) << bad;
  }
}

SweepPlan TwoByThree(uint64_t seeds) {
  return SweepPlan({MakeSweepParam("a", {"1", "2"}), MakeSweepParam("b", {"x", "y", "z"})}, seeds,
                   7);
}

TEST(SweepPlan, ProductFirstParamSlowest) {
  const SweepPlan plan = TwoByThree(4);
  EXPECT_EQ(plan.points(), 6u);
  EXPECT_EQ(plan.runs(), 24u);
  EXPECT_EQ(plan.Overrides(0), (Values{"a=1", "b=x"}));
  EXPECT_EQ(plan.Overrides(1), (Values{"a=1", "b=y"}));
  EXPECT_EQ(plan.Overrides(5), (Values{"a=2", "b=z"}));
  std::string error;
  std::vector<SweepParam> huge(6, MakeSweepParam("a", Values(10, "1")));
  EXPECT_FALSE(SweepPlan::Check(huge, &error));
}

TEST(SweepPlan, SeedsDependOnRootPointValuesAndIndexOnly) {
  const SweepPlan plan = TwoByThree(4);
  std::set<uint64_t> seeds;
  for (size_t p = 0; p < plan.points(); ++p) {
    for (uint64_t k = 0; k < plan.seeds(); ++k) seeds.insert(plan.Seed(p, k));
  }
  EXPECT_EQ(seeds.size(), plan.runs());
  // Adding a value to b keeps the seeds of (a=2, b=z).
  const SweepPlan wider(
      {MakeSweepParam("a", {"1", "2"}), MakeSweepParam("b", {"x", "y", "z", "w"})}, 4, 7);
  EXPECT_EQ(wider.Seed(6, 3), plan.Seed(5, 3));
  EXPECT_NE(SweepPlan(plan.params(), 4, 8).Seed(5, 3), plan.Seed(5, 3));
  // Pinned: a change of the derivation changes every sweep's results.
  EXPECT_EQ(SweepPlan({}, 1, 1).Seed(0, 0), 16298086052464343494u);
}

TEST(SweepPlan, ShardsAreDisjointAndCoverEveryRun) {
  const SweepPlan plan = TwoByThree(5);
  std::multiset<size_t> all;
  for (size_t i = 0; i < 3; ++i) {
    for (size_t r : plan.ShardRuns(i, 3)) all.insert(r);
  }
  EXPECT_EQ(all.size(), plan.runs());
  EXPECT_EQ(std::set<size_t>(all.begin(), all.end()).size(), plan.runs());
}

}  // namespace
}  // namespace mpsim
