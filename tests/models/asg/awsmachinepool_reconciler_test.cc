// CAPA's AWSMachinePool controller against a real simulated Auto Scaling
// Group and a fake API client (docs/reference/providers.md §1.6): throttled AWS calls
// surface as the pass's error, a version change during a running instance
// refresh, a token rotation's template version without a refresh, the
// MachinePoolMachines gate's 3-minute requeue, and deletion blocking up to
// 15 minutes on the ASG delete.
#include "models/asg/awsmachinepool_reconciler.h"

#include <gtest/gtest.h>

#include <memory>
#include <tuple>
#include <vector>

#include "tests/testing/provider_controller_test.h"

namespace mpsim::asg {
namespace {

const ObjectKey kKey{"default", "mp-0"};

class AwsMpTest : public ProviderControllerTest {
 protected:
  static AsgOptions Options() {
    AsgOptions o;
    o.zones = {"us-east-1a"};
    o.launch_delay = DistSpec::Constant(20 * kSecond);
    o.delete_delay = DistSpec::Constant(30 * kSecond);
    o.reaction_delay = DistSpec::Constant(kSecond);
    o.launch_retry = DistSpec::Constant(60 * kSecond);
    return o;
  }

  // A MachinePool of `replicas`, its AWSMachinePool and the controller;
  // `limits.enabled` gives it the account's buckets.
  void Start(int32_t replicas, AsgOptions o = Options()) {
    asg_ = std::make_unique<AutoScalingGroup>(&loop_, &workload_, &rec_, "mp-0", o, 1);
    fake::AddPoolPair(&client_, kAwsMachinePoolKind, replicas, "token-1");
    if (o.api_throttling.enabled) throttle_ = std::make_unique<AwsThrottle>(o.api_throttling);
    r_ = std::make_unique<AwsMachinePoolReconciler>(
        &client_, &loop_, &rec_, std::map<std::string, AutoScalingGroup*>{{"mp-0", asg_.get()}},
        throttle_.get());
  }
  Status Pass(Result* res) { return r_->Reconcile({kKey}, res); }
  Result OkPass() {
    Result res;
    EXPECT_TRUE(Pass(&res).ok());
    return res;
  }
  uint64_t Faults(const std::string& kind) {
    auto it = rec_.faults_by_kind().find(kind);
    return it == rec_.faults_by_kind().end() ? 0 : it->second;
  }
  // The group created and its instances InService.
  void Converge(int32_t replicas, AsgOptions o = Options()) {
    Start(replicas, o);
    OkPass();
    RunTo(loop_.Now() + kMinute);
    OkPass();
  }
  void MarkDeleted() {
    InfraMachinePool imp = client_.infra_machine_pools().At(kKey);
    imp.meta.deletion_timestamp = loop_.Now();
    client_.infra_machine_pools().Add(imp);
  }

  std::unique_ptr<AutoScalingGroup> asg_;
  std::unique_ptr<AwsThrottle> throttle_;
  std::unique_ptr<AwsMachinePoolReconciler> r_;
};

TEST_F(AwsMpTest, ThrottledDescribeFailsThePassWithThrottling) {
  AsgOptions o = Options();
  o.api_throttling = {.enabled = true, .describe_burst = 2, .describe_refill = 1};
  Start(1, o);
  EXPECT_EQ(OkPass().requeue_after, 15 * kSecond);  // created
  OkPass();
  Result res;
  const Status s = Pass(&res);
  EXPECT_EQ(s.code(), Status::Code::kThrottled);
  EXPECT_NE(s.message().find("Throttling: Rate exceeded"), std::string::npos) << s.message();
  EXPECT_EQ(Faults("Throttling"), 1u);
  EXPECT_EQ(Calls("autoscaling:DescribeAutoScalingGroups"), 3u) << "a throttled call is a call";
  RunTo(kSecond);
  OkPass();
}

TEST_F(AwsMpTest, ThrottledLaunchTemplateVersionIsRequestLimitExceededThenRetried) {
  AsgOptions o = Options();
  o.api_throttling = {.enabled = true, .mutating_burst = 1, .mutating_refill = 1};
  Converge(2, o);  // CreateLaunchTemplate spent EC2's one mutating token
  RunTo(loop_.Now() + kMinute);
  MachinePool mp = client_.machine_pools().At(kKey);
  mp.spec.template_.spec.version = "v1.31.0";
  client_.machine_pools().Add(mp);
  // A minute later the bucket is full again: ask for two mutations at once.
  ASSERT_TRUE(throttle_->Take("ec2:CreateTags", loop_.Now()).empty());
  Result res;
  const Status s = Pass(&res);
  EXPECT_EQ(s.code(), Status::Code::kThrottled);
  EXPECT_NE(s.message().find("RequestLimitExceeded"), std::string::npos) << s.message();
  EXPECT_EQ(asg_->launch_template_version(), 1);
  RunTo(loop_.Now() + kSecond);
  OkPass();
  EXPECT_EQ(asg_->launch_template_version(), 2);
  EXPECT_TRUE(asg_->refreshing());
  EXPECT_EQ(Faults("RequestLimitExceeded"), 1u);
}

// launchtemplate.go:251-275 (docs/reference/providers.md §1.6.3 step 4): a
// second version change while the first refresh runs cancels it and requeues
// 30 s without a new template version; once the refresh is Cancelled, the
// version is made and a new refresh replaces every instance.
TEST_F(AwsMpTest, VersionChangeDuringARefreshCancelsItAndWaitsBeforeTheNewVersion) {
  Converge(3);
  auto upgrade = [this](const char* version) {
    MachinePool mp = client_.machine_pools().At(kKey);
    mp.spec.template_.spec.version = version;
    client_.machine_pools().Add(mp);
  };
  upgrade("v1.31.0");
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_EQ(asg_->launch_template_version(), 2);
  EXPECT_EQ(asg_->UnfinishedRefresh(), RefreshStatus::kInProgress);
  // At 70 s the first batch is in flight: one instance Terminating until 90 s.
  RunTo(70 * kSecond);
  upgrade("v1.32.0");
  EXPECT_EQ(OkPass().requeue_after, 30 * kSecond);
  EXPECT_EQ(asg_->launch_template_version(), 2) << "no new version while a refresh is unfinished";
  EXPECT_EQ(asg_->UnfinishedRefresh(), RefreshStatus::kCancelling);
  EXPECT_EQ(Calls("autoscaling:CancelInstanceRefresh"), 1u);
  RunTo(80 * kSecond);
  EXPECT_EQ(OkPass().requeue_after, 30 * kSecond);
  EXPECT_EQ(Calls("autoscaling:CancelInstanceRefresh"), 1u)
      << "a Cancelling refresh is left to end";
  RunTo(100 * kSecond);  // Cancelled at 91 s
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_EQ(asg_->launch_template_version(), 3);
  EXPECT_EQ(asg_->UnfinishedRefresh(), RefreshStatus::kInProgress);
  EXPECT_EQ(Calls("autoscaling:DescribeInstanceRefreshes"), 4u);  // one a pass
  EXPECT_EQ(Calls("ec2:CreateLaunchTemplateVersion"), 2u);
  EXPECT_EQ(Calls("autoscaling:StartInstanceRefresh"), 2u);
  RunTo(2 * kHour);
  EXPECT_FALSE(asg_->refreshing());
  for (const Instance* i : asg_->Describe()) EXPECT_EQ(i->kubelet_version, "v1.32.0") << i->id;
}

// Before the group exists there is no refresh to wait for, and none to start:
// the template gets the new version and the group is created on it.
TEST_F(AwsMpTest, VersionChangeBeforeTheGroupExistsMakesTheVersionWithoutARefresh) {
  AsgOptions o = Options();
  o.api_throttling = {.enabled = true, .mutating_burst = 1, .mutating_refill = 1};
  Start(2, o);
  ASSERT_TRUE(throttle_->Take("autoscaling:UpdateAutoScalingGroup", 0).empty());
  Result res;
  EXPECT_EQ(Pass(&res).code(), Status::Code::kThrottled) << "CreateAutoScalingGroup";
  EXPECT_FALSE(asg_->exists());
  MachinePool mp = client_.machine_pools().At(kKey);
  mp.spec.template_.spec.version = "v1.31.0";
  client_.machine_pools().Add(mp);
  RunTo(10 * kSecond);
  EXPECT_EQ(OkPass().requeue_after, 15 * kSecond);
  EXPECT_EQ(Calls("autoscaling:DescribeInstanceRefreshes"), 0u);
  EXPECT_EQ(Calls("autoscaling:StartInstanceRefresh"), 0u);
  RunTo(kMinute);
  for (const Instance* i : asg_->Describe()) EXPECT_EQ(i->kubelet_version, "v1.31.0") << i->id;
}

// launchtemplate.go:278-283 and :326 (docs/reference/providers.md §1.6.3,
// CAPA PR #2354): a rotated join token changes only the user data's hash, so
// CAPA makes a new template version without asking about or starting an
// instance refresh. Instances running keep theirs; a later launch takes the
// new version ("$Latest").
TEST_F(AwsMpTest, ATokenRotationMakesATemplateVersionWithoutARefresh) {
  Converge(3);
  fake::RotateJoinToken(&client_, "token-1");
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_EQ(asg_->launch_template_version(), 2);
  EXPECT_EQ(Calls("ec2:CreateLaunchTemplateVersion"), 1u);
  EXPECT_EQ(Calls("autoscaling:DescribeInstanceRefreshes"), 0u) << "canStartInstanceRefresh";
  EXPECT_EQ(Calls("autoscaling:StartInstanceRefresh"), 0u);
  EXPECT_FALSE(asg_->refreshing());
  const TimelineRow& row = rec_.rows().back();
  EXPECT_EQ(std::tie(row.object_kind, row.object, row.field, row.from, row.to),
            std::make_tuple("LaunchTemplate", "mp-0", "latestVersion", "1", "2"));
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_EQ(Calls("ec2:CreateLaunchTemplateVersion"), 1u) << "the hash now matches";
  MachinePool mp = client_.machine_pools().At(kKey);
  mp.spec.replicas = 4;
  client_.machine_pools().Add(mp);
  OkPass();
  RunTo(loop_.Now() + kMinute);
  std::vector<int> versions;
  for (const Instance* i : asg_->Describe()) versions.push_back(i->launch_template_version);
  EXPECT_EQ(versions, (std::vector<int>{1, 1, 1, 2}));
}

// userDataSecretKeyChanged (launchtemplate.go:248): the template's
// bootstrap-data-secret tag names another secret, even one with the same
// data, so the new version comes with an instance refresh.
TEST_F(AwsMpTest, ANewDataSecretNameStartsARefresh) {
  Converge(3);
  fake::SetBootstrapConfig(&client_, "token-2", "token-0");
  MachinePool mp = client_.machine_pools().At(kKey);
  mp.spec.template_.spec.bootstrap.data_secret_name = "token-2";
  client_.machine_pools().Add(mp);
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_EQ(asg_->launch_template_version(), 2);
  EXPECT_EQ(Calls("autoscaling:StartInstanceRefresh"), 1u);
  EXPECT_TRUE(asg_->refreshing());
}

// A rotation while a version's refresh runs is "only the bootstrap token":
// CAPA neither cancels the refresh nor waits for it (launchtemplate.go:251
// asks only on the four flags). The refresh goes on and ends, its
// replacements on either version.
TEST_F(AwsMpTest, ARotationDuringARefreshNeitherCancelsNorStallsIt) {
  Converge(3);
  MachinePool mp = client_.machine_pools().At(kKey);
  mp.spec.template_.spec.version = "v1.31.0";
  client_.machine_pools().Add(mp);
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_EQ(asg_->UnfinishedRefresh(), RefreshStatus::kInProgress);
  RunTo(70 * kSecond);
  int launching = 0;  // replacements on version 2, InService only after the rotation
  for (const Instance* i : asg_->Describe()) {
    launching += i->state == State::kPending && i->launch_template_version == 2;
  }
  ASSERT_EQ(launching, 1);
  fake::RotateJoinToken(&client_, "token-1");
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_EQ(asg_->launch_template_version(), 3);
  EXPECT_EQ(Calls("autoscaling:CancelInstanceRefresh"), 0u);
  EXPECT_EQ(asg_->UnfinishedRefresh(), RefreshStatus::kInProgress);
  RunTo(2 * kHour);
  EXPECT_FALSE(asg_->refreshing()) << "the refresh ended";
  for (const Instance* i : asg_->Describe()) EXPECT_EQ(i->kubelet_version, "v1.31.0") << i->id;
}

TEST_F(AwsMpTest, WithoutThrottlingNoBurstIsRefused) {
  Start(1);
  for (int i = 0; i < 1000; ++i) OkPass();
  EXPECT_EQ(Calls("autoscaling:DescribeAutoScalingGroups"), 1000u);
  EXPECT_EQ(rec_.faults("mp-0"), 0u);
}

// Without the gate CAPA returns an empty result once the group exists: the
// pool is reconciled again only on watch events and the sync period.
TEST_F(AwsMpTest, NoPeriodicRequeueWithoutMachinePoolMachines) {
  Start(2);
  EXPECT_EQ(OkPass().requeue_after, 15 * kSecond);
  RunTo(kMinute);
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_EQ(OkPass(), Result{});
}

TEST_F(AwsMpTest, MachinePoolMachinesGateRequeuesEveryThreeMinutes) {
  AsgOptions o = Options();
  o.machine_pool_machines = true;
  Start(2, o);
  EXPECT_EQ(OkPass().requeue_after, 15 * kSecond);  // the create requeue is unchanged
  RunTo(kMinute);
  EXPECT_EQ(OkPass().requeue_after, 3 * kMinute);
  EXPECT_EQ(OkPass().requeue_after, 3 * kMinute);
}

// The gate's AWSMachines (docs/reference/providers.md §1.6.2): one per instance, with the
// pool's labels, its providerID and a non-controller owner reference, and no
// finalizer or status until their own controller reconciles them; the pool
// reports the kind so core makes Machines. An AWSMachine whose instance
// left the group loses its owner Machine (deleteOrphanedAWSMachines).
TEST_F(AwsMpTest, MachinePoolMachinesGateMakesAnAwsMachinePerInstance) {
  AsgOptions o = Options();
  o.machine_pool_machines = true;
  Converge(2, o);
  ASSERT_EQ(client_.infra_machines().size(), 2u);
  const ObjectKey first{kKey.ns, "mp-0-i-00000000000000001"};
  ASSERT_TRUE(client_.infra_machines().Has(first));
  const InfraMachine& am = client_.infra_machines().At(first);
  EXPECT_EQ(am.kind, kAwsMachineKind);
  EXPECT_EQ(am.spec.provider_id, "aws:///us-east-1a/i-00000000000000001");
  EXPECT_TRUE(am.meta.finalizers.empty());
  EXPECT_EQ(am.meta.labels.at("cluster.x-k8s.io/pool-name"), "mp-0");
  ASSERT_EQ(am.meta.owner_references.size(), 1u);
  EXPECT_EQ(am.meta.owner_references[0].kind, kAwsMachinePoolKind);
  EXPECT_FALSE(am.meta.owner_references[0].controller);
  EXPECT_EQ(client_.infra_machine_pools().At(kKey).status.infrastructure_machine_kind,
            kAwsMachineKind);
}

TEST_F(AwsMpTest, MachinePoolMachinesGateDeletesTheOwnerMachineOfAnOrphan) {
  AsgOptions o = Options();
  o.machine_pool_machines = true;
  Converge(1, o);
  InfraMachine orphan = client_.infra_machines().At({kKey.ns, "mp-0-i-00000000000000001"});
  orphan.meta.name = "mp-0-i-00000000000000099";
  orphan.spec.provider_id = "aws:///us-east-1a/i-00000000000000099";
  client_.infra_machines().Add(orphan);
  Machine owner;
  owner.meta = {.name = orphan.meta.name, .ns = kKey.ns};
  owner.meta.finalizers = {"machine.cluster.x-k8s.io"};
  client_.machines().Add(owner);
  OkPass();
  ASSERT_TRUE(client_.machines().Has(owner.meta.Key()));
  EXPECT_TRUE(client_.machines().At(owner.meta.Key()).meta.deletion_timestamp)
      << "core deletes the AWSMachine through its Machine";
  EXPECT_TRUE(client_.infra_machines().Has(orphan.meta.Key()));
  client_.machines().Remove(owner.meta.Key());
  OkPass();
  EXPECT_FALSE(client_.infra_machines().Has(orphan.meta.Key()))
      << "with no owner Machine the AWSMachine itself goes";
  EXPECT_TRUE(client_.infra_machines().Has({kKey.ns, "mp-0-i-00000000000000001"}));
}

// CAPA reads no delete-machine mark and never picks an instance itself: a
// scale-in only lowers DesiredCapacity and the group's Default termination
// policy chooses (docs/reference/providers.md §1.6.2 "Delete-machine"). Four instances
// launched zone by zone, fewest first (a, b, c, a): the policy takes one of
// us-east-1a's two to balance the zones, so the marked instance in
// us-east-1b, the node the autoscaler drained, survives, and the Machine
// that goes is an unmarked one, deleted as an orphan.
TEST_F(AwsMpTest, MachinePoolMachinesScaleInLeavesTheMarkedInstanceToThePolicy) {
  AsgOptions o = Options();
  o.machine_pool_machines = true;
  o.zones = {"us-east-1a", "us-east-1b", "us-east-1c"};
  Converge(4, o);
  for (const auto& [key, am] : client_.infra_machines().objects()) {
    Machine owner;
    owner.meta = {.name = key.name, .ns = key.ns};
    owner.meta.finalizers = {"machine.cluster.x-k8s.io"};
    client_.machines().Add(owner);
  }
  const ObjectKey marked{kKey.ns, "mp-0-i-00000000000000002"};
  ASSERT_EQ(asg_->Find("i-00000000000000002")->zone, "us-east-1b");
  Machine m = client_.machines().At(marked);
  m.meta.annotations[kDeleteMachineAnnotation] = "true";
  client_.machines().Add(m);
  MachinePool mp = client_.machine_pools().At(kKey);
  mp.spec.replicas = 3;
  client_.machine_pools().Add(mp);
  OkPass();
  RunTo(loop_.Now() + 5 * kSecond);  // the group reacts after 1 s
  std::vector<std::string> leaving;
  for (const Instance* i : asg_->Describe()) {
    if (Leaving(i->state)) leaving.push_back(i->id);
  }
  ASSERT_EQ(leaving.size(), 1u);
  EXPECT_EQ(asg_->Find(leaving[0])->zone, "us-east-1a");
  EXPECT_EQ(asg_->Find("i-00000000000000002")->state, State::kInService);
  RunTo(loop_.Now() + kMinute);  // the victim is gone after 30 s
  OkPass();
  EXPECT_TRUE(client_.machines().At({kKey.ns, "mp-0-" + leaving[0]}).meta.deletion_timestamp);
  EXPECT_FALSE(client_.machines().At(marked).meta.deletion_timestamp);
}

// CAPA's DeleteASGAndWait gives the GroupNotExists waiter 15 minutes.
// Instances that take 20 min to terminate outlast it: the pass fails at
// 15 min and the next one, finding the group "Delete in progress", lets
// the AWSMachinePool go.
TEST_F(AwsMpTest, DeletionBlocksUpToFifteenMinutesOnTheGroupDelete) {
  AsgOptions o = Options();
  o.delete_delay = DistSpec::Constant(20 * kMinute);
  Converge(2, o);
  MarkDeleted();
  const Time start = loop_.Now();
  Result res;
  ASSERT_TRUE(Pass(&res).ok());
  EXPECT_EQ(Calls("autoscaling:DeleteAutoScalingGroup"), 1u);
  Status s;
  while (res.requeue_after > 0) {
    ASSERT_LE(loop_.Now() + res.requeue_after, start + 15 * kMinute);
    RunTo(loop_.Now() + res.requeue_after);
    EXPECT_TRUE(client_.infra_machine_pools().Has(kKey)) << "held by the finalizer";
    res = Result{};
    s = Pass(&res);
  }
  EXPECT_EQ(loop_.Now(), start + 15 * kMinute);
  EXPECT_EQ(s.code(), Status::Code::kTimeout);
  EXPECT_NE(s.message().find("GroupNotExists"), std::string::npos) << s.message();
  EXPECT_TRUE(asg_->exists());
  EXPECT_EQ(Calls("ec2:DeleteLaunchTemplate"), 0u);
  RunTo(loop_.Now() + kSecond);
  EXPECT_EQ(OkPass(), Result{});
  EXPECT_FALSE(client_.infra_machine_pools().Has(kKey)) << "finalizer removed";
  EXPECT_TRUE(asg_->exists()) << "the group is still deleting";
  EXPECT_EQ(Calls("autoscaling:DeleteAutoScalingGroup"), 1u);
  EXPECT_EQ(Calls("ec2:DeleteLaunchTemplate"), 1u);
}

TEST_F(AwsMpTest, DeletionWaitsForTheGroupToGoWhenItGoesWithinTheWaiter) {
  Converge(2);
  MarkDeleted();
  const Time start = loop_.Now();
  Result res;
  ASSERT_TRUE(Pass(&res).ok());
  while (res.requeue_after > 0) {
    RunTo(loop_.Now() + res.requeue_after);
    res = Result{};
    ASSERT_TRUE(Pass(&res).ok());
  }
  // Terminated 30 s after the delete; the 15 s polls see it at 30 s.
  EXPECT_EQ(loop_.Now(), start + 30 * kSecond);
  EXPECT_FALSE(asg_->exists());
  EXPECT_FALSE(client_.infra_machine_pools().Has(kKey));
}

}  // namespace
}  // namespace mpsim::asg
