// Insufficient capacity and API throttling for the `eks` block
// (docs/reference/aws-managed.md §2.7): the node group's health issue and
// size under ICE, and the account's EKS and Auto Scaling buckets as CAPA's
// calls meet them.
#include <gtest/gtest.h>

#include "models/eks/eks_api_throttle.h"
#include "tests/models/eks/eks_fixture.h"

namespace mpsim::eks {
namespace {

// One token refilled at one a second, per service and kind of call.
ThrottleLimits EksOneTokenLimits() {
  return {.enabled = true,
          .describe_burst = 1,
          .describe_refill = 1,
          .mutating_burst = 1,
          .mutating_refill = 1};
}

TEST(EksApiThrottle, BucketsPerServiceAndKindOfCall) {
  EksApiThrottle t(EksOneTokenLimits());
  EXPECT_EQ(t.Take("eks:DescribeNodegroup", 0), "");
  EXPECT_EQ(t.Take("eks:DescribeNodegroup", 0), "ThrottlingException");
  // Other buckets are untouched: EKS's mutating one, Auto Scaling's.
  EXPECT_EQ(t.Take("eks:UpdateNodegroupConfig", 0), "");
  EXPECT_EQ(t.Take("autoscaling:DescribeAutoScalingGroups", 0), "");
  EXPECT_EQ(t.Take("autoscaling:DescribeAutoScalingGroups", 0), "Throttling");
  // One token a second: half a second is not enough, a whole one is.
  EXPECT_EQ(t.Take("eks:DescribeNodegroup", kSecond / 2), "ThrottlingException");
  EXPECT_EQ(t.Take("eks:DescribeNodegroup", kSecond), "");
}

class EksIceTest : public EksTest {
 protected:
  std::vector<std::string> FaultZones() {
    std::vector<std::string> out;
    for (const TimelineRow& r : rec_.rows()) {
      if (r.object_kind == "Fault" && r.to == "InsufficientInstanceCapacity") {
        out.push_back(r.object);
      }
    }
    return out;
  }
};

// Two zones, each with room for one instance, and a group of 3: the ASG
// launches one in each (fewest instances first), then finds both zones
// full, one ICE fault for each, and the activity fails. EKS shows
// AsgInstanceLaunchFailures; the group stays CREATING at 2 of 3.
TEST_F(EksIceTest, ShortCapacityIsAHealthIssueBelowTheDesiredSize) {
  EksOptions o = EksTestOptions();
  o.zones = {"us-east-1a", "us-east-1b"};
  o.capacity = {{"us-east-1a", 1}, {"us-east-1b", 1}};
  Start(3, o);
  ASSERT_TRUE(ng_->Create({.desired = 3}, "1.30", "v1.30.0").ok());
  // create 60 s, reaction 4 s: the first activity at 64 s.
  RunTo(64 * kSecond);
  EXPECT_EQ(ng_->Describe().size(), 2u);
  EXPECT_EQ(FaultZones(), (std::vector<std::string>{"us-east-1a", "us-east-1b"}));
  EXPECT_EQ(ng_->health_issue(), "AsgInstanceLaunchFailures");
  EXPECT_EQ(NodegroupRows("health"), (std::vector<std::string>{"AsgInstanceLaunchFailures"}));
  // launchRetry 60 s: at 124 s the retry fails again in both zones.
  RunTo(10 * kMinute);
  EXPECT_EQ(ng_->Describe().size(), 2u);
  EXPECT_EQ(ng_->status(), NodegroupStatus::kCreating);
}

// The issue lasts until the ASG is at its desired count: here a delete
// brings that to 0. Launch at 64 s fails, retry due at 124 s; the delete at
// 64 s sets desired 0 at 94 s (deleteGroupDelay 30 s), which the pending
// activity reads at 124 s: it terminates both instances and clears the issue.
TEST_F(EksIceTest, TheIssueClearsWhenTheGroupIsAtItsDesiredCount) {
  EksOptions o = EksTestOptions();
  o.capacity = {{"us-east-1a", 2}};
  Start(3, o);
  ASSERT_TRUE(ng_->Create({.desired = 3}, "1.30", "v1.30.0").ok());
  RunTo(64 * kSecond);
  ASSERT_EQ(ng_->health_issue(), "AsgInstanceLaunchFailures");
  ASSERT_TRUE(ng_->Delete().ok());
  RunTo(123 * kSecond);
  EXPECT_EQ(ng_->health_issue(), "AsgInstanceLaunchFailures");
  RunTo(124 * kSecond);
  EXPECT_EQ(ng_->health_issue(), "");
  EXPECT_EQ(NodegroupRows("health"), (std::vector<std::string>{"AsgInstanceLaunchFailures", ""}));
}

class EksThrottledTest : public EksTest {
 protected:
  void StartThrottled(int32_t replicas) {
    Start(replicas);
    throttle_ = std::make_unique<EksApiThrottle>(EksOneTokenLimits());
    std::map<std::string, AwsManagedMachinePoolReconciler::Pool> pools{
        {"mp-0", {ng_.get(), &waiter_rng_}}};
    r_ = std::make_unique<AwsManagedMachinePoolReconciler>(&client_, &loop_, &rec_, pools,
                                                           throttle_.get());
  }
  std::unique_ptr<EksApiThrottle> throttle_;
};

// §1.4, §2.7: the pass that creates the group describes it, then the
// waiter's first poll describes it again in the same instant; with one
// token that poll is throttled, which ends the waiter at once: the pass
// fails with the waiter's error, and holds no worker.
TEST_F(EksThrottledTest, AThrottledPollEndsTheWaiter) {
  StartThrottled(2);
  Result res;
  Status s = Call(&res);
  EXPECT_EQ(s.code(), Status::Code::kThrottled);
  EXPECT_EQ(s.message(),
            "failed to wait for nodegroup to be active: ThrottlingException: Rate exceeded "
            "(eks:DescribeNodegroup)");
  EXPECT_EQ(res.hold_for, 0);
  EXPECT_EQ(Calls("eks:CreateNodegroup"), 1u);
  EXPECT_EQ(ng_->status(), NodegroupStatus::kCreating);
  EXPECT_EQ(rec_.rows().back().to, "ThrottlingException");
}

}  // namespace
}  // namespace mpsim::eks
