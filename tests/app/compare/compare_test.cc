// `mpsim compare`: rows per pool and metric from two summary.json texts,
// with the delta and ratio of B against A, and bad input refused.
#include "app/compare/compare.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace mpsim {
namespace {

const char* kA = R"({"end_time_s": 100, "reconciles": 10, "pools": [
  {"name": "mp-0", "time_to_converge_s": 40, "reconciles": 8,
   "matching_latency_s": {"p50": 2, "p90": 4, "p99": 5, "max": 5, "count": 3}},
  {"name": "only-a", "time_to_converge_s": null}]})";
const char* kB = R"({"end_time_s": 150, "reconciles": 10, "pools": [
  {"name": "mp-0", "time_to_converge_s": 60, "reconciles": 12,
   "matching_latency_s": {"p50": 3, "p90": 4, "p99": 5, "max": 6, "count": 3}}]})";

const CompareRow* Find(const std::vector<CompareRow>& rows, const std::string& pool,
                       const std::string& metric) {
  for (const CompareRow& r : rows) {
    if (r.pool == pool && r.metric == metric) return &r;
  }
  return nullptr;
}

TEST(Compare, RowsPerPoolAndMetric) {
  std::vector<CompareRow> rows;
  std::string error;
  ASSERT_TRUE(CompareSummaries(kA, kB, &rows, &error)) << error;
  const CompareRow* ttc = Find(rows, "mp-0", "time_to_converge_s");
  ASSERT_NE(ttc, nullptr);
  EXPECT_EQ(ttc->a, 40);
  EXPECT_EQ(ttc->b, 60);
  const CompareRow* p50 = Find(rows, "mp-0", "matching_latency_s.p50");
  ASSERT_NE(p50, nullptr);
  EXPECT_EQ(p50->b, 3);
  const CompareRow* end = Find(rows, "", "end_time_s");
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->a, 100);
  // A pool in one run only, and a null time to converge, have no values.
  const CompareRow* only = Find(rows, "only-a", "time_to_converge_s");
  ASSERT_NE(only, nullptr);
  EXPECT_FALSE(only->a.has_value());
  EXPECT_FALSE(only->b.has_value());
}

TEST(Compare, JsonHasDeltaAndRatio) {
  std::vector<CompareRow> rows;
  std::string error;
  ASSERT_TRUE(CompareSummaries(kA, kB, &rows, &error)) << error;
  const nlohmann::json j = nlohmann::json::parse(CompareJson("a", "b", rows));
  bool seen = false;
  for (const auto& r : j["rows"]) {
    if (r["pool"] != "mp-0" || r["metric"] != "time_to_converge_s") continue;
    seen = true;
    EXPECT_EQ(r["delta"], 20.0);
    EXPECT_EQ(r["ratio"], 1.5);
  }
  EXPECT_TRUE(seen);
}

TEST(Compare, TableIsAligned) {
  std::vector<CompareRow> rows;
  std::string error;
  ASSERT_TRUE(CompareSummaries(kA, kB, &rows, &error)) << error;
  std::ostringstream os;
  PrintCompareTable(os, rows);
  std::istringstream lines(os.str());
  std::string header, line;
  std::getline(lines, header);
  while (std::getline(lines, line)) EXPECT_EQ(line.size(), header.size()) << line;
  EXPECT_NE(os.str().find("mp-0         time_to_converge_s"), std::string::npos) << os.str();
}

TEST(Compare, RefusesWhatIsNoSummary) {
  std::vector<CompareRow> rows;
  std::string error;
  EXPECT_FALSE(CompareSummaries("not json", kB, &rows, &error));
  EXPECT_NE(error.find("not a summary.json"), std::string::npos) << error;
  EXPECT_FALSE(CompareSummaries(kA, R"({"pools": 3})", &rows, &error));
}

}  // namespace
}  // namespace mpsim
