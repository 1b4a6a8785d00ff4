// Insufficient capacity and API throttling for the `rosa` block
// (docs/reference/aws-managed.md §3.11): a NodePool's one subnet has no
// other zone to try, and the controller returns a throttled call's error,
// the providerIDList's wrapped as upstream wraps it (rctl:267-269).
#include <gtest/gtest.h>

#include <memory>

#include "models/rosa/rosamachinepool_reconciler.h"
#include "tests/testing/provider_controller_test.h"

namespace mpsim::rosa {
namespace {

const ObjectKey kRosaIceKey{"default", "mp-0"};

RosaOptions RosaIceOptions() {
  RosaOptions o;
  o.zone = "us-east-1a";
  o.launch_delay = DistSpec::Constant(10 * kSecond);
  o.delete_delay = DistSpec::Constant(30 * kSecond);
  o.reaction_delay = DistSpec::Constant(30 * kSecond);
  o.launch_retry = DistSpec::Constant(60 * kSecond);
  o.upgrade_start_delay = DistSpec::Constant(0);
  return o;
}

TEST(RosaApiThrottle, OcmAndEc2HaveBucketsOfTheirOwn) {
  RosaApiThrottle t({.enabled = true,
                     .describe_burst = 1,
                     .describe_refill = 1,
                     .ocm_burst = 2,
                     .ocm_refill = 1});
  EXPECT_EQ(t.Take("ocm:GetNodePool", 0), "");
  EXPECT_EQ(t.Take("ocm:CreateNodePool", 0), "");
  EXPECT_EQ(t.Take("ocm:GetNodePool", 0), "OCM.TooManyRequests");
  EXPECT_EQ(t.Take("ec2:DescribeInstances", 0), "");
  EXPECT_EQ(t.Take("ec2:DescribeInstances", 0), "RequestLimitExceeded");
  EXPECT_EQ(t.Take("ocm:GetNodePool", kSecond), "");
}

class RosaIceTest : public ProviderControllerTest {
 protected:
  void StartPool(int32_t replicas, RosaOptions o, const ThrottleLimits* limits = nullptr) {
    np_ = std::make_unique<NodePool>(&loop_, &workload_, &rec_, "mp-0", std::move(o), 1);
    fake::AddPoolPair(&client_, kRosaMachinePoolKind, replicas);
    if (limits != nullptr) throttle_ = std::make_unique<RosaApiThrottle>(*limits);
    r_ = std::make_unique<RosaMachinePoolReconciler>(
        &client_, &loop_, &rec_, std::map<std::string, NodePool*>{{"mp-0", np_.get()}},
        throttle_.get());
  }
  int IceFaults() {
    int n = 0;
    for (const TimelineRow& r : rec_.rows()) {
      n += r.object_kind == "Fault" && r.to == "InsufficientInstanceCapacity";
    }
    return n;
  }

  std::unique_ptr<NodePool> np_;
  std::unique_ptr<RosaApiThrottle> throttle_;
  std::unique_ptr<RosaMachinePoolReconciler> r_;
};

// capacity 2 in the subnet's zone and 3 replicas: the activity (reaction
// 30 s) launches 2, then fails once; each retry (60 s) fails once more.
// Current replicas 2 of 3: not ready, the 60 s requeue goes on.
TEST_F(RosaIceTest, ShortCapacityLeavesThePoolBelowItsReplicas) {
  RosaOptions o = RosaIceOptions();
  o.capacity = {{"us-east-1a", 2}};
  StartPool(3, o);
  Result res;
  ASSERT_TRUE(r_->Reconcile({kRosaIceKey}, &res).ok());
  ASSERT_TRUE(np_->exists());
  RunTo(30 * kSecond);
  EXPECT_EQ(np_->RunningOrPending().size(), 2u);
  EXPECT_EQ(IceFaults(), 1);
  RunTo(90 * kSecond);
  EXPECT_EQ(IceFaults(), 2);
  RunTo(5 * kMinute);
  res = Result{};
  ASSERT_TRUE(r_->Reconcile({kRosaIceKey}, &res).ok());
  EXPECT_EQ(res.requeue_after, 60 * kSecond);
  EXPECT_EQ(client_.infra_machine_pools().At(kRosaIceKey).status.replicas,
            std::optional<int32_t>(2));
}

// rctl:267-269: DescribeInstances' error is returned wrapped.
TEST_F(RosaIceTest, AThrottledDescribeInstancesFailsThePass) {
  const ThrottleLimits limits{
      .enabled = true, .describe_burst = 1, .describe_refill = 1, .ocm_burst = 10, .ocm_refill = 1};
  StartPool(1, RosaIceOptions(), &limits);
  Result res;
  ASSERT_TRUE(r_->Reconcile({kRosaIceKey}, &res).ok());  // create: no EC2 call
  ASSERT_TRUE(r_->Reconcile({kRosaIceKey}, &res).ok());  // found: DescribeInstances
  Status s = r_->Reconcile({kRosaIceKey}, &res);         // the same instant: no token
  EXPECT_EQ(s.code(), Status::Code::kThrottled);
  EXPECT_EQ(s.message(),
            "failed to reconcile ProviderIDList: RequestLimitExceeded: Request limit exceeded. "
            "(ec2:DescribeInstances)");
}

// An OCM call's 429 is the pass's error; nothing is created.
TEST_F(RosaIceTest, AThrottledOcmCallFailsThePass) {
  const ThrottleLimits limits{
      .enabled = true, .describe_burst = 10, .describe_refill = 1, .ocm_burst = 1, .ocm_refill = 1};
  StartPool(1, RosaIceOptions(), &limits);
  Result res;
  Status s = r_->Reconcile({kRosaIceKey}, &res);  // GetNodePool takes the token
  EXPECT_EQ(s.code(), Status::Code::kThrottled);
  EXPECT_EQ(s.message(), "429 Too Many Requests (ocm:CreateNodePool)");
  EXPECT_FALSE(np_->exists());
}

}  // namespace
}  // namespace mpsim::rosa
