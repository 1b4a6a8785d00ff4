// The workloadUnreachable event's state: unreachable for the cut, overlapping
// cuts merged, one row and one notice per disconnect and per reconnect.
#include "sim/workload_partition.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

class WorkloadPartitionTest : public ::testing::Test {
 protected:
  WorkloadPartitionTest() : partition_(&loop_, &rec_, "workload", [this] { ++changes_; }) {}
  void RunTo(Time t) { loop_.Run(t, 1'000'000); }
  std::vector<std::string> Rows() const {
    std::vector<std::string> out;
    for (const TimelineRow& r : rec_.rows()) {
      out.push_back(std::to_string(r.time / kSecond) + " " + r.field + " " + r.to);
    }
    return out;
  }

  EventLoop loop_;
  Recorder rec_;
  int changes_ = 0;
  WorkloadPartition partition_;
};

TEST_F(WorkloadPartitionTest, UnreachableForTheCutThenReachable) {
  EXPECT_TRUE(partition_.Reachable());
  loop_.At(10 * kSecond, [this] { partition_.Cut(60 * kSecond); });
  RunTo(69 * kSecond);
  EXPECT_FALSE(partition_.Reachable());
  RunTo(70 * kSecond);
  EXPECT_TRUE(partition_.Reachable());
  EXPECT_EQ(changes_, 2);
  EXPECT_EQ(Rows(), (std::vector<std::string>{"10 reachable false", "70 reachable true"}));
}

TEST_F(WorkloadPartitionTest, OverlappingCutsMergeIntoOneOutage) {
  loop_.At(10 * kSecond, [this] { partition_.Cut(60 * kSecond); });
  loop_.At(30 * kSecond, [this] { partition_.Cut(60 * kSecond); });
  RunTo(71 * kSecond);
  EXPECT_FALSE(partition_.Reachable());  // the first cut's end heals nothing
  RunTo(100 * kSecond);
  EXPECT_TRUE(partition_.Reachable());
  EXPECT_EQ(changes_, 2);
  EXPECT_EQ(Rows(), (std::vector<std::string>{"10 reachable false", "90 reachable true"}));
}

}  // namespace
}  // namespace mpsim
