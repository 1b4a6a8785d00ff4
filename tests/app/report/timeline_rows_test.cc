// timeline.csv read back: quoted fields, Controller rows left out, and the
// series report.html draws.
#include "app/report/timeline_rows.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace mpsim {
namespace {

constexpr const char* kTimelineText =
    "time_s,object_kind,object,field,from,to\n"
    "0.000000,MachinePool,mp-0,spec.replicas,,3\n"
    "1.000000,Controller,machinepool,requeue,,mp-0\n"
    "2.500000,InfraMachinePool,mp-0,providerIDList,,gce://p/z/i-1\n"
    "3.000000,Node,n-1,providerID,,gce://p/z/i-1\n"
    "4.000000,Node,n-1,note,,\"a, \"\"b\"\"\nc\"\n"
    "6.000000,MachinePool,mp-0,nodeRef,,n-1\n"
    "7.000000,MachinePool,mp-0,readyReplicas,0,1\n";

std::vector<CsvTimelineRow> ReadKTimeline() {
  std::istringstream in(kTimelineText);
  std::vector<CsvTimelineRow> rows;
  std::string error;
  EXPECT_TRUE(ReadTimelineCsv(in, &rows, &error)) << error;
  return rows;
}

TEST(ReadTimelineCsv, QuotedFieldsAndNoControllerRows) {
  const std::vector<CsvTimelineRow> rows = ReadKTimeline();
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[3].to, "a, \"b\"\nc");
  EXPECT_EQ(rows[4].time_s, 6.0);
}

TEST(ReadTimelineCsv, BadHeaderOrRowNamesTheLine) {
  std::vector<CsvTimelineRow> rows;
  std::string error;
  std::istringstream bad_header("x,y\n");
  EXPECT_FALSE(ReadTimelineCsv(bad_header, &rows, &error));
  EXPECT_NE(error.find("line 1"), std::string::npos);
  std::istringstream bad_row("time_s,object_kind,object,field,from,to\nsoon,a,b,c,d,e\n");
  EXPECT_FALSE(ReadTimelineCsv(bad_row, &rows, &error));
  EXPECT_NE(error.find("line 2"), std::string::npos) << error;
}

TEST(TimelineSeries, ReplicasAndMatchingLatency) {
  const std::vector<CsvTimelineRow> rows = ReadKTimeline();
  const std::vector<StepPoint> desired = PoolSeries(rows, "mp-0", "spec.replicas");
  ASSERT_EQ(desired.size(), 2u);
  EXPECT_EQ(desired[1].value, 3.0);
  EXPECT_EQ(PoolSeries(rows, "mp-0", "readyReplicas").back().time_s, 7.0);
  EXPECT_EQ(MatchingLatencies(rows, "mp-0"), std::vector<double>{3.5});
  EXPECT_TRUE(MatchingLatencies(rows, "mp-9").empty());
}

}  // namespace
}  // namespace mpsim
