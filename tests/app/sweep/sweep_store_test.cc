// The sweep store: lines round-trip, a reopened store returns the runs done
// (dropping a line cut short by a kill) and refuses another sweep's directory.
#include "app/sweep/sweep_store.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;

SweepPlan Plan() { return SweepPlan({MakeSweepParam("a", {"1", "[x, y]"})}, 3, 1); }

std::string Dir(const std::string& name) {
  const fs::path d = testing::ScratchPath("store_" + name);
  fs::remove_all(d);
  return d.string();
}

SweepRow Row(const SweepPlan& plan, size_t run, const std::string& value) {
  SweepRow row;
  std::string error;
  EXPECT_TRUE(ParseSweepLine(SweepCsvLine(plan, run, {value, ""}), plan, 2, &row, &error)) << error;
  return row;
}

std::string Slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(SweepStore, LinesRoundTrip) {
  const SweepPlan plan = Plan();
  EXPECT_EQ(SweepCsvHeader(plan, {"m", "n"}), "point,seed_index,seed,a,m,n");
  const SweepRow row = Row(plan, 4, "0.1");  // point 1, seed index 1
  EXPECT_EQ(row.run, 4u);
  EXPECT_EQ(row.line.substr(0, 4), "1,1,");
  EXPECT_NE(row.line.find(",\"[x, y]\",0.1,"), std::string::npos) << row.line;
  EXPECT_EQ(row.metrics[0], 0.1);
  EXPECT_TRUE(std::isnan(row.metrics[1]));
  SweepRow bad;
  std::string error;
  EXPECT_FALSE(ParseSweepLine("9,0,1,1,2,3", plan, 2, &bad, &error));  // no point 9
}

TEST(SweepStore, ReopenSkipsDoneRunsAndDropsACutLine) {
  const SweepPlan plan = Plan();
  const std::string dir = Dir("reopen");
  std::string error;
  {
    SweepStore store(dir, "{\"id\":1}", SweepCsvHeader(plan, {"m", "n"}));
    SweepRows done;
    ASSERT_TRUE(store.Open(plan, 2, &done, &error)) << error;
    EXPECT_TRUE(done.empty());
    ASSERT_TRUE(store.Append(Row(plan, 5, "2"), &error));
    ASSERT_TRUE(store.Append(Row(plan, 0, "1"), &error));
  }
  std::ofstream(SweepStore::JournalPath(dir), std::ios::app) << "3,0,12";  // killed mid-line
  SweepStore again(dir, "{\"id\":1}", SweepCsvHeader(plan, {"m", "n"}));
  SweepRows done;
  ASSERT_TRUE(again.Open(plan, 2, &done, &error)) << error;
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done.begin()->first, 0u);
  EXPECT_EQ(done.rbegin()->second.metrics[0], 2);
  ASSERT_TRUE(again.Append(Row(plan, 3, "4"), &error));
  const std::string journal = Slurp(SweepStore::JournalPath(dir));
  EXPECT_EQ(journal.find("3,0,12\n"), std::string::npos) << "the cut line was not dropped";

  done[3] = Row(plan, 3, "4");
  ASSERT_TRUE(again.Finish(done, "{}\n", &error));
  EXPECT_FALSE(fs::exists(SweepStore::JournalPath(dir)));
  EXPECT_EQ(Slurp(dir + "/sweep.csv").substr(0, 28), "point,seed_index,seed,a,m,n\n");
}

TEST(SweepStore, RefusesAnotherSweepsJournal) {
  const SweepPlan plan = Plan();
  const std::string dir = Dir("other");
  std::string error;
  SweepRows done;
  {
    SweepStore store(dir, R"({"plan":{"seeds":3},"shard":""})", "h");
    ASSERT_TRUE(store.Open(plan, 2, &done, &error)) << error;
  }
  SweepStore other(dir, R"({"plan":{"seeds":4},"shard":""})", "h");
  EXPECT_FALSE(other.Open(plan, 2, &done, &error));
  EXPECT_NE(error.find("its seeds differs"), std::string::npos) << error;
}

}  // namespace
}  // namespace mpsim
