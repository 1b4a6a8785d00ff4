// CAPA's AWSMachine controller for the MachinePoolMachines gate's AWSMachines
// (docs/reference/providers.md §1.6.2, controllers/awsmachine_controller.go): nothing until
// core has made the owner Machine; then the finalizer, readiness from the
// instance with a 30 s requeue while it is pending, an error while its
// instance cannot be found; on deletion a plain TerminateInstances that
// leaves the group's desired capacity alone, and the finalizer held, looked
// at every minute, until the instance is gone.
#include "models/asg/awsmachine_reconciler.h"

#include <gtest/gtest.h>

#include <memory>

#include "models/asg/awsmachinepool_reconciler.h"
#include "tests/testing/provider_controller_test.h"

namespace mpsim::asg {
namespace {

const ObjectKey kPool{"default", "mp-0"};
const ObjectKey kFirst{"default", "mp-0-i-00000000000000001"};

class AwsMachineTest : public ProviderControllerTest {
 protected:
  // A gated pool of `replicas` whose group exists and has launched; its
  // instances are Pending for 20 s.
  void Start(int32_t replicas, const ThrottleLimits& limits = {}) {
    AsgOptions o;
    o.zones = {"us-east-1a"};
    o.launch_delay = DistSpec::Constant(20 * kSecond);
    o.delete_delay = DistSpec::Constant(30 * kSecond);
    o.reaction_delay = DistSpec::Constant(kSecond);
    o.machine_pool_machines = true;
    asg_ = std::make_unique<AutoScalingGroup>(&loop_, &workload_, &rec_, "mp-0", o, 1);
    fake::AddPoolPair(&client_, kAwsMachinePoolKind, replicas, "token-1");
    const std::map<std::string, AutoScalingGroup*> groups{{"mp-0", asg_.get()}};
    pool_ = std::make_unique<AwsMachinePoolReconciler>(&client_, &loop_, &rec_, groups);
    if (limits.enabled) throttle_ = std::make_unique<AwsThrottle>(limits);
    r_ = std::make_unique<AwsMachineReconciler>(&client_, &loop_, &rec_, groups, throttle_.get());
    PoolPass();  // creates the group
    RunTo(loop_.Now() + 2 * kSecond);
    PoolPass();  // one AWSMachine per launched instance
  }
  void PoolPass() {
    Result res;
    ASSERT_TRUE(pool_->Reconcile({kPool}, &res).ok());
  }
  Status Pass(const ObjectKey& key, Result* res) { return r_->Reconcile({key}, res); }
  Result OkPass(const ObjectKey& key = kFirst) {
    Result res;
    EXPECT_TRUE(Pass(key, &res).ok());
    return res;
  }
  // What core does for each AWSMachine: an owner Machine named after it.
  void MakeOwner(const ObjectKey& key) {
    Machine m;
    m.meta = {.name = key.name, .ns = key.ns};
    m.spec.infrastructure_ref = {.kind = kAwsMachineKind, .name = key.name};
    client_.machines().Add(m);
  }
  const InfraMachine& First() { return client_.infra_machines().At(kFirst); }
  void MarkDeleted(const ObjectKey& key) {
    InfraMachine am = client_.infra_machines().At(key);
    am.meta.deletion_timestamp = loop_.Now();
    client_.infra_machines().Add(am);
  }

  std::unique_ptr<AutoScalingGroup> asg_;
  std::unique_ptr<AwsThrottle> throttle_;
  std::unique_ptr<AwsMachinePoolReconciler> pool_;
  std::unique_ptr<AwsMachineReconciler> r_;
};

TEST_F(AwsMachineTest, WaitsForCoreToMakeTheOwnerMachine) {
  Start(2);
  ASSERT_TRUE(client_.infra_machines().Has(kFirst));
  const uint64_t describes = Calls("ec2:DescribeInstances");
  EXPECT_EQ(OkPass(), Result{}) << "no requeue: the Machine's creation brings it back";
  EXPECT_EQ(Calls("ec2:DescribeInstances"), describes) << "AWS is not asked";
  EXPECT_TRUE(First().meta.finalizers.empty());
}

TEST_F(AwsMachineTest, PendingRequeuesEveryThirtySecondsThenReadyWhenInService) {
  Start(2);
  EXPECT_TRUE(First().meta.finalizers.empty()) << "the pool makes it without a finalizer";
  MakeOwner(kFirst);
  const uint64_t describes = Calls("ec2:DescribeInstances");
  EXPECT_EQ(OkPass().requeue_after, 30 * kSecond);
  EXPECT_EQ(Calls("ec2:DescribeInstances"), describes + 1);
  EXPECT_TRUE(HasFinalizer(First().meta, kAwsMachineFinalizer)) << "added after the first read";
  EXPECT_EQ(First().status.ready, false);
  RunTo(loop_.Now() + 30 * kSecond);
  EXPECT_EQ(OkPass(), Result{}) << "InService: no more requeues";
  EXPECT_EQ(First().status.ready, true);
}

TEST_F(AwsMachineTest, AnInstanceNotFoundIsAnError) {
  Start(1);
  const ObjectKey stray{"default", "mp-0-i-00000000000000099"};
  InfraMachine am = First();
  am.meta.name = stray.name;
  am.spec.provider_id = "aws:///us-east-1a/i-00000000000000099";
  client_.infra_machines().Add(am);
  MakeOwner(stray);
  Result res;
  const Status s = Pass(stray, &res);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no instance found for machine pool"), std::string::npos)
      << s.message();
}

TEST_F(AwsMachineTest, DeletionTerminatesTheInstanceAndHoldsTheFinalizerUntilItIsGone) {
  Start(2);
  MakeOwner(kFirst);
  RunTo(loop_.Now() + 30 * kSecond);
  OkPass();
  MarkDeleted(kFirst);
  EXPECT_EQ(OkPass().requeue_after, kMinute);
  EXPECT_EQ(Calls("ec2:TerminateInstances"), 1u);
  EXPECT_EQ(asg_->desired(), 2) << "TerminateInstances leaves the desired capacity alone";
  EXPECT_TRUE(HasFinalizer(First().meta, kAwsMachineFinalizer));
  EXPECT_EQ(OkPass().requeue_after, kMinute) << "shutting down: look again in a minute";
  EXPECT_EQ(Calls("ec2:TerminateInstances"), 1u) << "not terminated twice";
  RunTo(loop_.Now() + kMinute);
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_TRUE(!client_.infra_machines().Has(kFirst) || First().meta.finalizers.empty())
      << "the instance is gone: the finalizer is released";
}

// CAPA's client-side limiter makes a DescribeInstances wait, not fail, so
// the machine's reads are counted but not charged to the account's bucket;
// its TerminateInstances is charged and fails when that bucket is empty.
TEST_F(AwsMachineTest, DescribeIsCountedNotChargedAndTerminateIsCharged) {
  Start(2, {.enabled = true,
            .describe_burst = 1,
            .describe_refill = 1,
            .mutating_burst = 1,
            .mutating_refill = 1});
  const ObjectKey second{"default", "mp-0-i-00000000000000002"};
  MakeOwner(kFirst);
  MakeOwner(second);
  const uint64_t describes = Calls("ec2:DescribeInstances");
  for (int i = 0; i < 5; ++i) {
    OkPass(kFirst);
    OkPass(second);
  }
  EXPECT_EQ(Calls("ec2:DescribeInstances"), describes + 10);
  MarkDeleted(kFirst);
  MarkDeleted(second);
  OkPass(kFirst);
  Result res;
  const Status s = Pass(second, &res);
  EXPECT_EQ(s.code(), Status::Code::kThrottled) << s.message();
  EXPECT_EQ(Calls("ec2:TerminateInstances"), 2u) << "counted whether or not it went through";
}

// A test Builder that keeps the map functions it is given.
class Watches : public Builder {
 public:
  void WatchClusters(MapFunc<Cluster>) override {}
  void WatchMachinePools(MapFunc<MachinePool>) override {}
  void WatchBootstrapConfigs(MapFunc<BootstrapConfig>) override {}
  void WatchInfraMachinePools(MapFunc<InfraMachinePool>) override {}
  void WatchMachines(MapFunc<Machine> f) override { machines = std::move(f); }
  void WatchInfraMachines(MapFunc<InfraMachine> f) override { infra = std::move(f); }
  void WatchWorkloadNodes(MapFunc<Node>) override {}
  MapFunc<Machine> machines;
  MapFunc<InfraMachine> infra;
};

TEST(AwsMachineWatches, OwnKindStatusOnlyUpdatesDroppedAndMachinesMappedToTheirInfraRef) {
  AwsMachineReconciler r(nullptr, nullptr, nullptr, {});
  Watches b;
  r.Setup(&b);
  ASSERT_TRUE(b.infra && b.machines);
  InfraMachine am;
  am.meta = {.name = "mp-0-i-1", .ns = "default"};
  am.kind = kAwsMachineKind;
  InfraMachine status_only = am;
  status_only.status.ready = true;
  InfraMachine deleting = am;
  deleting.meta.deletion_timestamp = 5 * kSecond;
  InfraMachine other = am;
  other.kind = "TestMachine";
  using InfraEvent = WatchEvent<InfraMachine>;
  EXPECT_EQ(b.infra({InfraEvent::Type::kAdded, nullptr, am}).size(), 1u);
  EXPECT_TRUE(b.infra({InfraEvent::Type::kModified, &am, status_only}).empty());
  EXPECT_EQ(b.infra({InfraEvent::Type::kModified, &am, deleting}).size(), 1u);
  EXPECT_TRUE(b.infra({InfraEvent::Type::kAdded, nullptr, other}).empty());
  Machine m;
  m.meta = {.name = "m", .ns = "default"};
  m.spec.infrastructure_ref = {.kind = kAwsMachineKind, .name = "mp-0-i-1"};
  const std::vector<Request> reqs = b.machines({WatchEvent<Machine>::Type::kAdded, nullptr, m});
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].key, (ObjectKey{"default", "mp-0-i-1"}));
}

// The AWSMachinePool controller watches no AWSMachines (docs/reference/providers.md §1.6.1).
TEST(AwsMachinePoolWatches, NoneOnAwsMachines) {
  AwsMachinePoolReconciler r(nullptr, nullptr, nullptr, {});
  Watches b;
  r.Setup(&b);
  EXPECT_FALSE(b.infra);
  EXPECT_FALSE(b.machines);
}

}  // namespace
}  // namespace mpsim::asg
