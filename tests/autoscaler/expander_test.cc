// The expanders (docs/reference/autoscaler.md §3.5): least-waste scores an
// option by the unused fraction of its new nodes' cpu plus that of their
// memory, from node capacity; ties, and the random expander, draw.
#include "autoscaler/expander.h"

#include <gtest/gtest.h>

#include <set>

namespace mpsim::autoscaler {
namespace {

constexpr int64_t kExpanderGi = 1024LL * 1024 * 1024;

ScaleUpOption ExpanderOption(const char* group, int32_t nodes, Resources node,
                             Resources requested) {
  return ScaleUpOption{group, nodes, 1, node, requested};
}

// Two 4-CPU 16Gi nodes holding 6 CPU and 8Gi: cpu (8-6)/8 = 0.25 unused,
// memory (32-8)/32 = 0.75; the score is their sum, 1.0 (waste.go).
TEST(Expander, LeastWasteSumsTheUnusedCpuAndMemoryFractions) {
  const ScaleUpOption o =
      ExpanderOption("a", 2, {4000, 16 * kExpanderGi, 110}, {6000, 8 * kExpanderGi, 6});
  EXPECT_DOUBLE_EQ(Waste(o), 1.0);
}

TEST(Expander, LeastWastePicksTheSmallestScore) {
  const std::vector<ScaleUpOption> options = {
      ExpanderOption("big", 1, {16000, 64 * kExpanderGi, 110}, {4000, 8 * kExpanderGi, 4}),
      ExpanderOption("small", 1, {4000, 16 * kExpanderGi, 110}, {4000, 8 * kExpanderGi, 4}),
  };
  Rng rng = StreamFor(1, "test");
  EXPECT_EQ(BestOption(Expander::kLeastWaste, options, &rng).group, "small");
}

// Exact ties go to a random pick among the tied (chain.go falls back to random).
TEST(Expander, TiesAndTheRandomExpanderDrawFromTheirStream) {
  const Resources node{4000, 16 * kExpanderGi, 110};
  const std::vector<ScaleUpOption> options = {
      ExpanderOption("a", 1, node, {2000, 8 * kExpanderGi, 2}),
      ExpanderOption("b", 1, node, {2000, 8 * kExpanderGi, 2}),
      ExpanderOption("c", 1, node, {1000, 4 * kExpanderGi, 1})};
  Rng rng = StreamFor(7, "test");
  std::set<std::string> least, random;
  for (int i = 0; i < 64; ++i) {
    least.insert(BestOption(Expander::kLeastWaste, options, &rng).group);
    random.insert(BestOption(Expander::kRandom, options, &rng).group);
  }
  EXPECT_EQ(least, (std::set<std::string>{"a", "b"}));
  EXPECT_EQ(random, (std::set<std::string>{"a", "b", "c"}));
}

TEST(Expander, NamesAreThoseOfTheFlag) {
  Expander e;
  EXPECT_TRUE(ParseExpander("least-waste", &e));
  EXPECT_EQ(e, Expander::kLeastWaste);
  EXPECT_TRUE(ParseExpander("random", &e));
  EXPECT_EQ(e, Expander::kRandom);
  EXPECT_FALSE(ParseExpander("most-pods", &e));
}

}  // namespace
}  // namespace mpsim::autoscaler
