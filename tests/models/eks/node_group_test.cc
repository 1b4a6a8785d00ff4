// The simulated EKS node group (docs/reference/aws-managed.md §2): the
// update's surge (§2.2), the parallelism, EKS's checks of the scaling
// config and its quota (§2.3, §2.4), one minor version per update, and the
// four update phases in order.
#include "models/eks/node_group.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/models/eks/eks_fixture.h"

namespace mpsim::eks {
namespace {

// §2.2: "5 AZs with maxUnavailable 1 -> up to 10 new nodes; maxUnavailable
// 20 -> 20" (the update-behavior page's own examples).
TEST(EksSurge, LargerOfTwiceTheZonesAndMaxUnavailable) {
  EXPECT_EQ(SurgeOf(5, 1), 10);
  EXPECT_EQ(SurgeOf(5, 20), 20);
  EXPECT_EQ(SurgeOf(1, 1), 2);
}

// §1.8: maxUnavailable 1 by default (CAPA's webhook); a percentage of the size.
TEST(EksSurge, Parallelism) {
  EXPECT_EQ(MaxUnavailableOf(1, 0, 10), 1);
  EXPECT_EQ(MaxUnavailableOf(0, 10, 100), 10);
  EXPECT_EQ(MaxUnavailableOf(0, 10, 5), 1);
}

// §1.6: CAPA compares major.minor only and steps one minor at a time.
TEST(EksVersion, MinorsCompareWithoutThePatch) {
  EXPECT_EQ(MinorOf("v1.30.2"), "1.30");
  EXPECT_EQ(NextMinor("1.30"), "1.31");
  EXPECT_EQ(NextMinor("1.9"), "1.10");
  EXPECT_EQ(CompareMinor("1.30", "v1.30.9"), 0);
  EXPECT_EQ(CompareMinor("1.29", "1.30"), -1);
  EXPECT_EQ(CompareMinor("1.31", "1.30"), 1);
  EXPECT_EQ(CompareMinor("1.9", "1.10"), -1);
}

class EksNodeGroupTest : public EksTest {};

// §2.3: min <= desired <= max, else 400 InvalidParameterException; §2.4 the
// quota of 450 nodes per managed node group.
TEST_F(EksNodeGroupTest, CreateChecksScalingAndQuota) {
  NodeGroup ng(&loop_, &workload_, &rec_, "mp-0", EksTestOptions(), 1);
  Status s = ng.Create({.desired = 0, .min_size = 2, .max_size = 5}, "1.30", "v1.30.0");
  EXPECT_EQ(s.code(), Status::Code::kInvalid);
  EXPECT_NE(s.message().find("Minimum capacity 2 can't be greater than desired size 0"),
            std::string::npos)
      << s.message();
  s = ng.Create({.desired = 451}, "1.30", "v1.30.0");
  EXPECT_EQ(s.code(), Status::Code::kInvalid);
  EXPECT_NE(s.message().find("quota of nodes per managed node group (450)"), std::string::npos)
      << s.message();
  EXPECT_EQ(ng.status(), NodegroupStatus::kAbsent);
  EXPECT_TRUE(ng.Create({.desired = 450}, "1.30", "v1.30.0").ok());
}

TEST_F(EksNodeGroupTest, CreateIsActiveOnceEveryNodeIsReady) {
  NodeGroup ng(&loop_, &workload_, &rec_, "mp-0", EksTestOptions(), 1);
  ASSERT_TRUE(ng.Create({.desired = 3}, "1.30", "v1.30.0").ok());
  EXPECT_EQ(ng.status(), NodegroupStatus::kCreating);
  EXPECT_FALSE(ng.has_asg());
  RunTo(10 * kMinute);
  EXPECT_EQ(ng.status(), NodegroupStatus::kActive);
  EXPECT_TRUE(ng.has_asg());
  ASSERT_EQ(ng.Describe().size(), 3u);
  for (const Instance* inst : ng.Describe()) {
    EXPECT_EQ(inst->provider_id.str(), "aws:///us-east-1a/" + inst->id);
  }
  EXPECT_EQ(NodegroupRows("status"), (std::vector<std::string>{"CREATING", "ACTIVE"}));
}

TEST_F(EksNodeGroupTest, VersionUpdateGoesOneMinorAtATime) {
  NodeGroup ng(&loop_, &workload_, &rec_, "mp-0", EksTestOptions(), 1);
  ASSERT_TRUE(ng.Create({.desired = 2}, "1.30", "v1.30.0").ok());
  RunTo(10 * kMinute);
  EXPECT_EQ(ng.UpdateVersion("1.32", "v1.32.0").code(), Status::Code::kInvalid);
  ASSERT_TRUE(ng.UpdateVersion("1.31", "v1.31.0").ok());
  EXPECT_EQ(ng.status(), NodegroupStatus::kUpdating);
  EXPECT_EQ(ng.UpdateConfig({.desired = 3}).code(), Status::Code::kConflict)
      << "one update at a time";
}

// §2.2 in three zones, 3 nodes, maxUnavailable 1: the group grows by
// max(2 x 3, 1) = 6 to 9, every old node is replaced, and it shrinks back to
// 3 nodes of the new version; the phases come in the documented order.
TEST_F(EksNodeGroupTest, VersionUpdateRunsTheFourPhases) {
  EksOptions o = EksTestOptions();
  o.zones = {"us-east-1a", "us-east-1b", "us-east-1c"};
  NodeGroup ng(&loop_, &workload_, &rec_, "mp-0", o, 1);
  ASSERT_TRUE(ng.Create({.desired = 3}, "1.30", "v1.30.0").ok());
  RunTo(10 * kMinute);
  std::set<std::string> old;
  for (const Instance* inst : ng.Describe()) old.insert(inst->id);
  ASSERT_TRUE(ng.UpdateVersion("1.31", "v1.31.0").ok());
  size_t peak = 0;
  for (Time t = loop_.Now(); t < 2 * kHour && ng.status() != NodegroupStatus::kActive;
       t += kSecond) {
    RunTo(t);
    peak = std::max(peak, ng.Describe().size());
  }
  EXPECT_EQ(ng.status(), NodegroupStatus::kActive);
  EXPECT_EQ(ng.version(), "1.31");
  EXPECT_GE(peak, 9u);
  RunTo(loop_.Now() + 5 * kMinute);
  ASSERT_EQ(ng.Describe().size(), 3u);
  for (const Instance* inst : ng.Describe()) {
    EXPECT_FALSE(old.count(inst->id)) << inst->id << " survived the update";
    EXPECT_EQ(inst->version, "v1.31.0");
  }
  EXPECT_EQ(NodegroupRows("updatePhase"),
            (std::vector<std::string>{"scaleUp", "upgrade", "scaleDown", ""}));
}

// CAPA#5672: nodes of the new template never join, so the scale-up phase
// never ends and the group stays UPDATING.
TEST_F(EksNodeGroupTest, NeverJoiningNodesKeepTheGroupUpdating) {
  EksOptions o = EksTestOptions();
  o.upgraded_nodes_join = false;
  NodeGroup ng(&loop_, &workload_, &rec_, "mp-0", o, 1);
  ASSERT_TRUE(ng.Create({.desired = 2}, "1.30", "v1.30.0").ok());
  RunTo(10 * kMinute);
  ASSERT_TRUE(ng.UpdateVersion("1.31", "v1.31.0").ok());
  RunTo(3 * kHour);
  EXPECT_EQ(ng.status(), NodegroupStatus::kUpdating);
  EXPECT_EQ(ng.version(), "1.30");
}

}  // namespace
}  // namespace mpsim::eks
