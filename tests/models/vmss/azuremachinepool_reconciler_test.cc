// CAPZ's AzureMachinePool controller against a real simulated scale set and
// a fake API client (docs/reference/providers.md §2.6.1, §2.6.3): the saved future and its
// 15 s requeue, 30 s while not converged, ready on a Failed scale set per
// CAPZ version, failed VMs deleted first, surge capacity on upgrade, delete
// policies, drain before delete, 429 Retry-After, the sorted providerIDList,
// bootstrap-data rotation that rolls nothing, and HEAD's and v1.26.0's
// choice of victims while Nodes are not Ready.
#include "models/vmss/azuremachinepool_reconciler.h"

#include <gtest/gtest.h>

#include <set>

#include "sim/api_server.h"
#include "tests/testing/fake_client.h"

namespace mpsim::vmss {
namespace {

const ObjectKey kKey{"default", "mp-0"};

class AmpTest : public ::testing::Test {
 protected:
  AmpTest()
      : server_(&loop_),
        workload_(&loop_, &server_, &rec_, WorkloadOptions{}, 1),
        client_(&loop_) {}

  static VmssOptions Options() {
    VmssOptions o;
    o.zones = {"1"};
    o.launch_delay = DistSpec::Constant(60 * kSecond);
    o.delete_delay = DistSpec::Constant(30 * kSecond);
    o.operation_delay = DistSpec::Constant(2 * kSecond);
    o.allocation_failure_delay = DistSpec::Constant(20 * kSecond);
    return o;
  }

  // A MachinePool of `replicas` and its AzureMachinePool, and the controller.
  void Start(int32_t replicas, VmssOptions o = Options()) {
    vmss_ = std::make_unique<VirtualMachineScaleSet>(&loop_, &workload_, &rec_, "mp-0", o, 1);
    fake::AddPoolPair(&client_, kAzureMachinePoolKind, replicas, "token-1");
    throttle_ = std::make_unique<ArmThrottle>(
        ArmThrottle{TokenBucket(o.arm_read_burst, o.arm_reads_per_second),
                    TokenBucket(o.arm_write_burst, o.arm_writes_per_second)});
    auto ready = [this](const std::string& name) { return all_ready_ || ready_.count(name); };
    std::map<std::string, AzureMachinePoolReconciler::Pool> pools{{"mp-0", {vmss_.get(), o}}};
    r_ = std::make_unique<AzureMachinePoolReconciler>(&client_, &loop_, &rec_, throttle_.get(),
                                                      AzureMachinePoolReconciler::EachOf(ready),
                                                      pools, 1);
  }
  Result Pass() {
    Result res;
    EXPECT_TRUE(r_->Reconcile({kKey}, &res).ok());
    return res;
  }
  // Runs the loop to `t`, then stands at `t` even if the queue ran dry earlier.
  void RunTo(Time t) {
    loop_.At(t, [] {});
    loop_.Run(t, 10'000'000);
  }
  const InfraMachinePool& Amp() { return client_.infra_machine_pools().At(kKey); }
  void SetMachinePool(const std::function<void(MachinePool*)>& f) {
    MachinePool mp = client_.machine_pools().At(kKey);
    f(&mp);
    client_.machine_pools().Add(mp);
  }
  uint64_t Calls(const std::string& api) {
    const auto& m = rec_.provider_api_calls_by_api("mp-0");
    auto it = m.find(api);
    return it == m.end() ? 0 : it->second;
  }
  // Brings the pool to `replicas` Succeeded VMs with Ready nodes.
  void Converge(int32_t replicas, VmssOptions o = Options()) {
    Start(replicas, o);
    all_ready_ = true;
    Pass();
    RunTo(loop_.Now() + 2 * kMinute);
    Pass();
    RunTo(loop_.Now() + 11 * kSecond);  // past the coalescing reconciler's 10 s
  }
  // The scale set's capacity right after an upgrade with `surge`, from 4 replicas.
  int32_t CapacityAfterUpgrade(const std::string& surge) {
    VmssOptions o = Options();
    o.max_surge = surge;
    Converge(4, o);
    SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
    Pass();
    EXPECT_EQ(vmss_->model_version(), "v1.31.0");
    RunTo(loop_.Now() + 5 * kSecond);
    return vmss_->capacity();
  }
  int32_t CapacityAfterScaleUpMidUpgrade(OrchestrationMode mode);
  // The VMs Deleting right after a scale-down from 5 to 3 with `policy`.
  std::vector<uint64_t> ScaleDownVictims(DeletePolicy policy) {
    VmssOptions o = Options();
    o.delete_policy = policy;
    Converge(5, o);
    const uint64_t puts = Calls("compute:virtualMachineScaleSets.createOrUpdate");
    SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 3; });
    Pass();
    EXPECT_EQ(vmss_->capacity(), 3);
    EXPECT_EQ(Calls("compute:virtualMachineScaleSets.createOrUpdate"), puts);  // no PUT
    std::vector<uint64_t> deleting;
    for (const auto& [id, vm] : vmss_->vms()) {
      if (vm.state == VmState::kDeleting) deleting.push_back(id);
    }
    return deleting;
  }
  std::vector<uint64_t> Deleting() {
    std::vector<uint64_t> out;
    for (const auto& [id, vm] : vmss_->vms()) {
      if (vm.state == VmState::kDeleting) out.push_back(id);
    }
    return out;
  }
  // Converges 3 replicas with `selection`; from then on only their Nodes are Ready.
  void ConvergeThree(DeleteSelection selection) {
    VmssOptions o = Options();
    o.delete_selection = selection;
    Converge(3, o);
    all_ready_ = false;
    ready_ = {"mp-0_0", "mp-0_1", "mp-0_2"};
  }
  // The VMs Deleting when a scale-up from 3 to 5 is taken back while the two
  // new VMs run but their Nodes are not Ready.
  std::vector<uint64_t> ScaleUpTakenBack(DeleteSelection selection) {
    ConvergeThree(selection);
    SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 5; });
    Pass();
    RunTo(loop_.Now() + 2 * kMinute);
    SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 3; });
    Pass();
    return Deleting();
  }
  // The VMs Deleting when a pool of 3 is scaled to 2 while its upgrade's
  // surge VM runs but its Node is not Ready.
  std::vector<uint64_t> ScaleDownDuringUpgrade(DeleteSelection selection) {
    ConvergeThree(selection);
    SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
    Pass();
    RunTo(loop_.Now() + 2 * kMinute);
    EXPECT_EQ(vmss_->vms().at(3).state, VmState::kSucceeded);
    SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 2; });
    Pass();
    return Deleting();
  }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
  fake::FakeClient client_;
  std::unique_ptr<VirtualMachineScaleSet> vmss_;
  std::unique_ptr<ArmThrottle> throttle_;
  std::unique_ptr<AzureMachinePoolReconciler> r_;
  bool all_ready_ = false;
  std::set<std::string> ready_;
};

TEST_F(AmpTest, APutLeavesAFutureAndRequeuesAfter15s) {
  Start(3);
  EXPECT_EQ(Pass().requeue_after, 15 * kSecond);
  EXPECT_TRUE(vmss_->operation_pending());
  EXPECT_EQ(Calls("compute:virtualMachineScaleSets.createOrUpdate"), 1u);
  RunTo(11 * kSecond);                            // past the coalescing reconciler's 10 s
  EXPECT_EQ(Pass().requeue_after, 15 * kSecond);  // still pending: no second PUT
  EXPECT_EQ(Calls("compute:virtualMachineScaleSets.createOrUpdate"), 1u);
}

// pkg/coalescing: a pass that returned no error, even one that asked to be
// requeued, holds the key back for 10 s; the held request comes back when
// the window ends, and never sooner than 1 s.
TEST_F(AmpTest, APassWithoutErrorHoldsTheKeyBackFor10s) {
  Start(3);
  EXPECT_EQ(Pass().requeue_after, 15 * kSecond);
  const uint64_t gets = Calls("compute:virtualMachineScaleSets.get");
  RunTo(4 * kSecond);
  EXPECT_EQ(Pass().requeue_after, 6 * kSecond);
  RunTo(9'500 * kMillisecond);
  EXPECT_EQ(Pass().requeue_after, kSecond);
  EXPECT_EQ(Calls("compute:virtualMachineScaleSets.get"), gets);  // neither pass ran
  RunTo(10 * kSecond);
  Pass();
  EXPECT_EQ(Calls("compute:virtualMachineScaleSets.get"), gets + 1);
}

TEST_F(AmpTest, RequeuesAfter30sUntilEveryMachineIsReady) {
  Start(2);
  Pass();
  RunTo(2 * kMinute);
  EXPECT_EQ(Pass().requeue_after, 30 * kSecond);
  EXPECT_EQ(Amp().status.replicas, 0);
  ready_ = {"mp-0_0", "mp-0_1"};
  RunTo(loop_.Now() + 11 * kSecond);
  EXPECT_EQ(Pass().requeue_after, 0);
  EXPECT_EQ(Amp().status.replicas, 2);
  EXPECT_EQ(Amp().status.ready, true);
}

TEST_F(AmpTest, ProviderIdListIsSortedAsStrings) {
  Converge(11);
  const ProviderIDList listed = *Amp().spec.provider_id_list;
  const std::vector<std::string> ids(listed.begin(), listed.end());
  ASSERT_EQ(ids.size(), 11u);
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(ids[1].substr(ids[1].rfind('/') + 1), "1");
  EXPECT_EQ(ids[2].substr(ids[2].rfind('/') + 1), "10");
}

TEST_F(AmpTest, ThrottledReadRequeuesAfterRetryAfter) {
  VmssOptions o = Options();
  o.arm_read_burst = 2;
  o.arm_reads_per_second = 0.1;  // a token every 10 s
  Start(1, o);
  // Passes 11 s apart (past the coalescing window) until one is throttled:
  // it asks to come back when the next token is there, not after a backoff.
  Result throttled;
  for (int i = 1; i <= 10 && throttled == Result{}; ++i) {
    const Result r = Pass();
    if (r.requeue_after > 0 && r.requeue_after < 10 * kSecond) throttled = r;
    RunTo(i * 11 * kSecond);
  }
  // Less than a token's 10 s: the wait for the next one, after which the
  // read gets through.
  EXPECT_GT(throttled.requeue_after, 0);
  EXPECT_LT(throttled.requeue_after, 10 * kSecond);
  TokenBucket later = throttle_->reads;
  EXPECT_EQ(later.Take(loop_.Now() - 11 * kSecond + throttled.requeue_after), 0);
  int faults = 0;
  for (const TimelineRow& row : rec_.rows()) faults += row.to == "TooManyRequests";
  EXPECT_EQ(faults, 1);
}

TEST_F(AmpTest, FailedScaleSetIsNotReadyAtHead) {
  VmssOptions o = Options();
  o.capacity = {{"1", 1}};
  Converge(1, o);
  ASSERT_EQ(Amp().status.ready, true);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 2; });
  Pass();
  RunTo(loop_.Now() + 2 * kMinute);
  Pass();
  EXPECT_EQ(vmss_->provisioning_state(), "Failed");
  EXPECT_EQ(Amp().status.ready, false);
}

TEST_F(AmpTest, FailedScaleSetKeepsReadyInV1_26_0) {
  VmssOptions o = Options();
  o.capacity = {{"1", 1}};
  o.failed_behavior = FailedBehavior::kV1_26_0;
  Converge(1, o);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 2; });
  Pass();
  RunTo(loop_.Now() + 2 * kMinute);
  Pass();
  EXPECT_EQ(vmss_->provisioning_state(), "Failed");
  EXPECT_EQ(Amp().status.ready, true);
}

TEST_F(AmpTest, FailedVmsAreDeletedThenCapacityIsPutBackUp) {
  VmssOptions o = Options();
  o.capacity = {{"1", 1}};
  Converge(1, o);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 2; });
  Pass();
  RunTo(loop_.Now() + 2 * kMinute);
  Pass();  // the failed VM goes first
  EXPECT_EQ(vmss_->vms().at(1).state, VmState::kDeleting);
  EXPECT_EQ(vmss_->capacity(), 1);
  RunTo(loop_.Now() + kMinute);
  Pass();  // and the next pass scales back up: CAPZ #5860's loop
  EXPECT_EQ(Calls("compute:virtualMachineScaleSets.createOrUpdate"), 3u);
  RunTo(loop_.Now() + kMinute);
  EXPECT_EQ(vmss_->vms().at(2).state, VmState::kFailed);
}

TEST_F(AmpTest, UpgradeSurgesByOneByDefault) { EXPECT_EQ(CapacityAfterUpgrade("1"), 5); }

TEST_F(AmpTest, UpgradeSurgePercentageRoundsUp) { EXPECT_EQ(CapacityAfterUpgrade("25%"), 5); }

TEST_F(AmpTest, UpgradeSurgeOfHalf) { EXPECT_EQ(CapacityAfterUpgrade("50%"), 6); }

// The capacity PUT when a 4-replica pool mid-upgrade (old-model VMs still
// there, the surge VM's PUT done) is scaled to 6.
int32_t AmpTest::CapacityAfterScaleUpMidUpgrade(OrchestrationMode mode) {
  VmssOptions o = Options();
  o.orchestration_mode = mode;
  Converge(4, o);
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  Pass();
  RunTo(loop_.Now() + 2 * kMinute);  // the PUT is done once the surge VM is
  EXPECT_EQ(vmss_->capacity(), 5);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 6; });
  Pass();
  RunTo(loop_.Now() + 5 * kSecond);
  return vmss_->capacity();
}

// spec.go: `updated` is true for Flex, so a pending rollout surges only a
// Uniform scale set's scale-up.
TEST_F(AmpTest, UniformScaleUpMidRolloutKeepsTheSurge) {
  EXPECT_EQ(CapacityAfterScaleUpMidUpgrade(OrchestrationMode::kUniform), 7);
}

TEST_F(AmpTest, FlexibleScaleUpMidRolloutDoesNotSurge) {
  EXPECT_EQ(CapacityAfterScaleUpMidUpgrade(OrchestrationMode::kFlexible), 6);
}

TEST_F(AmpTest, SurgedMachineReplacesTheOldestOldModelMachine) {
  Converge(2);
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  Pass();
  RunTo(loop_.Now() + 2 * kMinute);
  Pass();
  EXPECT_EQ(vmss_->vms().at(0).state, VmState::kDeleting);
  EXPECT_EQ(vmss_->vms().at(1).state, VmState::kSucceeded);
  EXPECT_EQ(vmss_->vms().at(2).kubelet_version, "v1.31.0");
}

TEST_F(AmpTest, ScaleDownDeletesTheOldestMachines) {
  EXPECT_EQ(ScaleDownVictims(DeletePolicy::kOldest), (std::vector<uint64_t>{0, 1}));
}

TEST_F(AmpTest, ScaleDownWithNewestDeletesTheNewestMachines) {
  EXPECT_EQ(ScaleDownVictims(DeletePolicy::kNewest), (std::vector<uint64_t>{3, 4}));
}

TEST_F(AmpTest, DrainComesBeforeTheVmDelete) {
  VmssOptions o = Options();
  o.drain_time = 90 * kSecond;
  Converge(3, o);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 2; });
  EXPECT_EQ(Pass().requeue_after, 30 * kSecond);  // not converged: the shorter requeue
  EXPECT_EQ(vmss_->vms().at(0).state, VmState::kSucceeded);
  RunTo(loop_.Now() + 90 * kSecond);
  Pass();
  EXPECT_EQ(vmss_->vms().at(0).state, VmState::kDeleting);
}

// spec.go:136-151 and its test "update for existing vmss with only custom
// data change" (expected nil: no PUT): a rotated join token alone sends
// nothing; the next PUT made for a capacity increase carries the new custom
// data, a new model with the same image ("...only capacity change but should
// patch custom data"), and no VM is outdated by it (HasLatestModelApplied
// compares images, azure/types.go:188-191).
TEST_F(AmpTest, BootstrapTokenRotationRollsNothing) {
  Converge(3);
  const uint64_t puts = Calls("compute:virtualMachineScaleSets.createOrUpdate");
  fake::RotateJoinToken(&client_, "token-1");
  EXPECT_EQ(Amp().status.replicas, 3);
  EXPECT_EQ(Pass().requeue_after, 0);
  EXPECT_EQ(Calls("compute:virtualMachineScaleSets.createOrUpdate"), puts);
  EXPECT_EQ(vmss_->model(), 1);
  RunTo(loop_.Now() + 11 * kSecond);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 4; });
  Pass();
  EXPECT_EQ(Calls("compute:virtualMachineScaleSets.createOrUpdate"), puts + 1);
  EXPECT_EQ(vmss_->model(), 2) << "the new custom data rides on the capacity PUT";
  bool model_row = false;
  for (const TimelineRow& r : rec_.rows()) {
    model_row |= r.object_kind == "VirtualMachineScaleSet" && r.field == "model" && r.to == "2";
  }
  EXPECT_TRUE(model_row);
  EXPECT_EQ(vmss_->model_version(), "v1.30.0");
  RunTo(loop_.Now() + 2 * kMinute);
  Pass();
  EXPECT_EQ(vmss_->referenced_models(), 2);
  EXPECT_EQ(vmss_->on_latest_model(), 4) << "same image: every VM is on the latest model";
  EXPECT_EQ(vmss_->count(VmState::kDeleting), 0);
  EXPECT_EQ(vmss_->capacity(), 4);
}

class BootstrapWatch : public Builder {
 public:
  void WatchClusters(MapFunc<Cluster>) override {}
  void WatchMachinePools(MapFunc<MachinePool>) override {}
  void WatchBootstrapConfigs(MapFunc<BootstrapConfig> f) override { configs = std::move(f); }
  void WatchInfraMachinePools(MapFunc<InfraMachinePool>) override {}
  void WatchMachines(MapFunc<Machine>) override {}
  void WatchInfraMachines(MapFunc<InfraMachine>) override {}
  void WatchWorkloadNodes(MapFunc<Node>) override {}
  MapFunc<BootstrapConfig> configs;
};

// azuremachinepool_controller.go:291-310 and BootstrapConfigToInfrastructureMapFunc
// (helpers.go:375-432): a rotation's change of the KubeadmConfig enqueues
// the AzureMachinePool named after its MachinePool owner; a config of a pool
// with no AzureMachinePool enqueues nothing.
TEST_F(AmpTest, ARotationOfThePoolsBootstrapConfigWakesThePool) {
  Start(3);
  BootstrapWatch b;
  r_->Setup(&b);
  ASSERT_TRUE(b.configs);
  const BootstrapConfig before = client_.bootstrap_configs().At({"default", "token-1"});
  fake::RotateJoinToken(&client_, "token-1");
  const BootstrapConfig after = client_.bootstrap_configs().At({"default", "token-1"});
  using Type = WatchEvent<BootstrapConfig>::Type;
  const std::vector<Request> reqs = b.configs({Type::kModified, &before, after});
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].key, kKey);
  BootstrapConfig other = after;
  other.meta.owner_references[0].name = "mp-aws";
  EXPECT_TRUE(b.configs({Type::kModified, &before, other}).empty());
}

// A capacity PUT with the custom data CAPZ last tagged leaves the model alone
// (the virtualMachineProfile is left out, spec.go:145-148).
TEST_F(AmpTest, ScaleUpWithoutARotationKeepsTheModel) {
  Converge(3);
  RunTo(loop_.Now() + 11 * kSecond);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 4; });
  Pass();
  RunTo(loop_.Now() + 5 * kSecond);
  EXPECT_EQ(vmss_->capacity(), 4);
  EXPECT_EQ(vmss_->model(), 1);
}

// v1.26.0 counts 3 ready machines of 3 desired and deletes nothing; HEAD
// counts the 2 unready ones too (no rollout: every VM on the latest model).
TEST_F(AmpTest, TakenBackScaleUpDeletesTheUnreadyMachinesAtHead) {
  EXPECT_EQ(ScaleUpTakenBack(DeleteSelection::kHead), (std::vector<uint64_t>{3, 4}));
}

TEST_F(AmpTest, TakenBackScaleUpWaitsForReadyMachinesInV1_26_0) {
  EXPECT_TRUE(ScaleUpTakenBack(DeleteSelection::kV1_26_0).empty());
}

// 2 desired is below the 3 replicas last reconciled, so HEAD sees no rollout
// and protects nothing: the unready surge VM goes, then the oldest. v1.26.0
// is over by one ready machine and takes the oldest old-model one.
TEST_F(AmpTest, ScaleDownDuringAnUpgradeIsNoRolloutAtHead) {
  EXPECT_EQ(ScaleDownDuringUpgrade(DeleteSelection::kHead), (std::vector<uint64_t>{0, 3}));
}

TEST_F(AmpTest, ScaleDownDuringAnUpgradeTakesTheOldestInV1_26_0) {
  EXPECT_EQ(ScaleDownDuringUpgrade(DeleteSelection::kV1_26_0), (std::vector<uint64_t>{0}));
}

}  // namespace
}  // namespace mpsim::vmss
