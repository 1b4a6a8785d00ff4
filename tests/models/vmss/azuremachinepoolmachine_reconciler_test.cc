// CAPZ's AzureMachinePoolMachines (docs/reference/providers.md §2.6.2, §2.6.3) for a pool
// with `machinePoolMachines`: the AzureMachinePool makes one per VM and
// lists them, sorted, as its providerIDList; each is ready when the Node with
// exactly its providerID is, requeues every 30 s until then, and deletes its
// VM only once core has deleted it through its owner Machine; victims of a
// scale-down lose their owner Machines, never their VMs directly.
#include "models/vmss/azuremachinepoolmachine_reconciler.h"

#include <gtest/gtest.h>

#include "models/vmss/azuremachinepool_reconciler.h"
#include "models/vmss/vmss_provider.h"
#include "sim/api_server.h"
#include "tests/testing/fake_client.h"

namespace mpsim::vmss {
namespace {

const ObjectKey kPool{"default", "mp-0"};

ObjectKey MachineKey(uint64_t id) { return {"default", MachineNameFor("mp-0", id)}; }

class AmpmTest : public ::testing::Test {
 protected:
  AmpmTest()
      : server_(&loop_),
        workload_(&loop_, &server_, &rec_, WorkloadOptions{}, 1),
        client_(&loop_) {}

  void Start(int32_t replicas) {
    VmssOptions o;
    o.zones = {"1"};
    o.launch_delay = DistSpec::Constant(60 * kSecond);
    o.delete_delay = DistSpec::Constant(30 * kSecond);
    o.operation_delay = DistSpec::Constant(2 * kSecond);
    o.machine_pool_machines = true;
    o.delete_selection = selection_;
    vmss_ = std::make_unique<VirtualMachineScaleSet>(&loop_, &workload_, &rec_, "mp-0", o, 1);
    fake::AddPoolPair(&client_, kAzureMachinePoolKind, replicas, "token-1");
    MachinePool mp = client_.machine_pools().At(kPool);
    mp.spec.cluster_name = "c";
    client_.machine_pools().Add(mp);
    throttle_ = std::make_unique<ArmThrottle>(
        ArmThrottle{TokenBucket(o.arm_read_burst, o.arm_reads_per_second),
                    TokenBucket(o.arm_write_burst, o.arm_writes_per_second)});
    std::map<std::string, AzureMachinePoolReconciler::Pool> pools{{"mp-0", {vmss_.get(), o}}};
    amp_ = std::make_unique<AzureMachinePoolReconciler>(
        &client_, &loop_, &rec_, throttle_.get(),
        AzureMachinePoolReconciler::EachOf([](const std::string&) { return false; }), pools, 1);
    ampm_ = std::make_unique<AzureMachinePoolMachineReconciler>(
        &client_, &loop_, &rec_, throttle_.get(),
        std::map<std::string, VirtualMachineScaleSet*>{{"mp-0", vmss_.get()}});
  }
  Result PoolPass() {
    Result res;
    EXPECT_TRUE(amp_->Reconcile({kPool}, &res).ok());
    return res;
  }
  Result MachinePass(uint64_t id) {
    Result res;
    EXPECT_TRUE(ampm_->Reconcile({MachineKey(id)}, &res).ok());
    return res;
  }
  void RunTo(Time t) {
    loop_.At(t, [] {});
    loop_.Run(t, 10'000'000);
  }
  // What core does for each machine: an owner Machine named after it.
  void MakeOwners() {
    for (const auto& [key, im] : client_.infra_machines().objects()) {
      if (client_.machines().Has(key)) continue;
      Machine m;
      m.meta = {.name = key.name, .ns = key.ns};
      m.meta.finalizers = {"machine.cluster.x-k8s.io"};
      m.spec.cluster_name = "c";
      m.spec.infrastructure_ref = {.kind = kAzureMachinePoolMachineKind, .name = key.name};
      client_.machines().Add(m);
    }
  }
  // The VM's Node, with `provider_id` (default: the VM's own) and Ready.
  void AddNode(uint64_t id, bool ready, std::string provider_id = "") {
    const VirtualMachine& vm = vmss_->vms().at(id);
    Node n;
    n.meta.name = vm.name;
    n.spec.provider_id = provider_id.empty() ? vm.provider_id : SharedString(provider_id);
    n.status.conditions = {{.type = "Ready", .status = ready ? "True" : "False"}};
    client_.nodes().Add(n);
  }
  // Three VMs Succeeded, their machines and owners made, Nodes Ready.
  void ConvergeThree() {
    Start(3);
    PoolPass();
    RunTo(loop_.Now() + 2 * kMinute);
    PoolPass();
    MakeOwners();
    for (uint64_t id = 0; id < 3; ++id) {
      AddNode(id, true);
      MachinePass(id);
    }
    RunTo(loop_.Now() + 11 * kSecond);  // past the coalescing reconciler's 10 s
    PoolPass();
    RunTo(loop_.Now() + 11 * kSecond);
  }
  const InfraMachinePool& Amp() { return client_.infra_machine_pools().At(kPool); }
  void SetReplicas(int32_t replicas) {
    MachinePool mp = client_.machine_pools().At(kPool);
    mp.spec.replicas = replicas;
    client_.machine_pools().Add(mp);
  }
  // What the cluster autoscaler writes on the Machine of the node it drained.
  void MarkOwner(uint64_t id) {
    Machine m = client_.machines().At(MachineKey(id));
    m.meta.annotations[kDeleteMachineAnnotation] = "true";
    client_.machines().Add(m);
  }
  bool OwnerGoing(uint64_t id) {
    return client_.machines().At(MachineKey(id)).meta.deletion_timestamp.has_value();
  }
  // Three converged machines, the middle one's owner marked, scaled to 2:
  // the marked one goes, where Oldest alone would take the first.
  void ExpectTheMarkedMiddleGoes() {
    ConvergeThree();
    MarkOwner(1);
    SetReplicas(2);
    PoolPass();
    EXPECT_FALSE(OwnerGoing(0));
    EXPECT_TRUE(OwnerGoing(1));
    EXPECT_FALSE(OwnerGoing(2));
  }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
  fake::FakeClient client_;
  std::unique_ptr<VirtualMachineScaleSet> vmss_;
  std::unique_ptr<ArmThrottle> throttle_;
  std::unique_ptr<AzureMachinePoolReconciler> amp_;
  std::unique_ptr<AzureMachinePoolMachineReconciler> ampm_;
  DeleteSelection selection_ = DeleteSelection::kHead;
};

// The AzureMachinePoolMachine controller checks each VM's Node, so the
// provider's manager must cache the workload cluster's Nodes.
TEST(AmpmNames, TheProviderReadsWorkloadNodes) {
  EXPECT_TRUE(VmssProvider(ProviderContext{}).ReadsWorkloadNodes());
}

TEST(AmpmNames, MachineNamesCarryTheInstanceId) {
  EXPECT_EQ(MachineNameFor("mp-0", 12), "mp-0-12");
  EXPECT_EQ(InstanceIdOf("mp-0-12"), 12u);
  EXPECT_EQ(InstanceIdOf("mp-0-x1"), std::nullopt);
  EXPECT_EQ(InstanceIdOf("mp-0-"), std::nullopt);
}

TEST_F(AmpmTest, ThePoolMakesOneMachinePerVmAndTellsCoreTheirKind) {
  Start(3);
  PoolPass();
  RunTo(loop_.Now() + 11 * kSecond);  // the PUT's VMs are listed; past the 10 s coalescing
  PoolPass();
  EXPECT_EQ(Amp().status.infrastructure_machine_kind, kAzureMachinePoolMachineKind);
  for (uint64_t id = 0; id < 3; ++id) {
    ASSERT_TRUE(client_.infra_machines().Has(MachineKey(id))) << id;
    const InfraMachine& m = client_.infra_machines().At(MachineKey(id));
    EXPECT_EQ(m.kind, kAzureMachinePoolMachineKind);
    EXPECT_EQ(m.spec.provider_id, vmss_->vms().at(id).provider_id);
    EXPECT_EQ(m.meta.labels.at("cluster.x-k8s.io/pool-name"), "mp-0");
    EXPECT_TRUE(HasFinalizer(m.meta, kAzureMachinePoolMachineFinalizer));
  }
}

// updateReplicasAndProviderIDs: the list is the machines' IDs, sorted as
// strings (CAPZ #6011: VM 10 sorts before VM 2); replicas counts ready ones.
TEST_F(AmpmTest, TheListIsTheMachinesSortedAndReplicasTheReadyOnes) {
  Start(11);
  PoolPass();
  RunTo(loop_.Now() + 11 * kSecond);
  PoolPass();  // makes the machines; the list comes from the next pass's read
  RunTo(loop_.Now() + 11 * kSecond);
  PoolPass();
  ASSERT_TRUE(Amp().spec.provider_id_list);
  const auto& ids = Amp().spec.provider_id_list->vec();
  ASSERT_EQ(ids.size(), 11u);
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(ids[2].str(), vmss_->vms().at(10).provider_id);
  EXPECT_EQ(Amp().status.replicas, 0);
  InfraMachine m = client_.infra_machines().At(MachineKey(4));
  m.status.ready = true;
  client_.infra_machines().Add(m);
  RunTo(loop_.Now() + 11 * kSecond);
  PoolPass();
  EXPECT_EQ(Amp().status.replicas, 1);
}

TEST_F(AmpmTest, AMachineWaitsForItsOwnerMachine) {
  Start(1);
  PoolPass();
  RunTo(loop_.Now() + 2 * kMinute);
  PoolPass();
  AddNode(0, true);
  EXPECT_EQ(MachinePass(0), Result{});  // no Machine yet: no requeue either
  EXPECT_FALSE(client_.infra_machines().At(MachineKey(0)).status.ready.value_or(false));
}

// Ready copies the Node's Ready condition; until then every 30 s.
TEST_F(AmpmTest, AMachineIsReadyWhenItsNodeIsAndRequeuesEvery30sUntilThen) {
  Start(1);
  PoolPass();
  RunTo(loop_.Now() + 2 * kMinute);
  PoolPass();
  MakeOwners();
  EXPECT_EQ(MachinePass(0).requeue_after, 30 * kSecond);  // no Node yet
  AddNode(0, false);
  RunTo(loop_.Now() + 30 * kSecond);
  EXPECT_EQ(MachinePass(0).requeue_after, 30 * kSecond);
  EXPECT_FALSE(client_.infra_machines().At(MachineKey(0)).status.ready.value_or(false));
  AddNode(0, true);
  RunTo(loop_.Now() + 30 * kSecond);
  EXPECT_EQ(MachinePass(0), Result{});
  EXPECT_TRUE(client_.infra_machines().At(MachineKey(0)).status.ready.value_or(false));
}

// getNodeByProviderID is exact: a Node that kept the resource group's case
// is never found (CAPZ #2817).
TEST_F(AmpmTest, ANodeWhoseProviderIdDiffersInCaseIsNeverFound) {
  Start(1);
  PoolPass();
  RunTo(loop_.Now() + 2 * kMinute);
  PoolPass();
  MakeOwners();
  std::string upper = vmss_->vms().at(0).provider_id;
  const size_t rg = upper.find("mpsim-rg");
  ASSERT_NE(rg, std::string::npos);
  upper.replace(rg, 8, "MPSIM-RG");
  AddNode(0, true, upper);
  EXPECT_EQ(MachinePass(0).requeue_after, 30 * kSecond);
  EXPECT_FALSE(client_.infra_machines().At(MachineKey(0)).status.ready.value_or(false));
}

// A scale-down deletes the oldest machine's owner Machine; the VM stays
// until core deletes the machine itself (after the drain), and then the
// machine deletes it and waits for it to go, polling every 15 s.
TEST_F(AmpmTest, AScaleDownGoesThroughTheOwnerMachine) {
  ConvergeThree();
  MachinePool mp = client_.machine_pools().At(kPool);
  mp.spec.replicas = 2;
  client_.machine_pools().Add(mp);
  PoolPass();
  EXPECT_TRUE(client_.machines().At(MachineKey(0)).meta.deletion_timestamp);
  EXPECT_FALSE(client_.machines().At(MachineKey(1)).meta.deletion_timestamp);
  EXPECT_EQ(vmss_->vms().at(0).state, VmState::kSucceeded);
  // Core's Machine controller, drained: the machine is deleted.
  ASSERT_TRUE(client_.InfraMachines().Delete(MachineKey(0)).ok());
  EXPECT_EQ(MachinePass(0).requeue_after, 15 * kSecond);
  EXPECT_EQ(vmss_->vms().at(0).state, VmState::kDeleting);
  RunTo(loop_.Now() + 31 * kSecond);
  EXPECT_FALSE(vmss_->vms().count(0));
  MachinePass(0);
  EXPECT_FALSE(client_.infra_machines().Has(MachineKey(0)));
}

// CAPZ never deletes a machine whose owner Machine core has not made yet.
TEST_F(AmpmTest, AMachineWithoutAnOwnerIsNeverAVictim) {
  ConvergeThree();
  client_.machines().Remove(MachineKey(0));
  MachinePool mp = client_.machine_pools().At(kPool);
  mp.spec.replicas = 2;
  client_.machine_pools().Add(mp);
  PoolPass();
  EXPECT_FALSE(client_.machines().Has(MachineKey(0)));
  EXPECT_FALSE(client_.infra_machines().At(MachineKey(0)).meta.deletion_timestamp);
  EXPECT_FALSE(client_.machines().At(MachineKey(1)).meta.deletion_timestamp);
}

// A VM deleted by someone else (here, straight through the scale set) takes
// its owner Machine along once its machine sees it Deleting.
TEST_F(AmpmTest, AVmDeletingOnItsOwnDeletesItsOwnerMachine) {
  ConvergeThree();
  vmss_->DeleteInstance(1);
  ASSERT_EQ(vmss_->vms().at(1).state, VmState::kDeleting);
  MachinePass(1);
  EXPECT_TRUE(client_.machines().At(MachineKey(1)).meta.deletion_timestamp);
  EXPECT_FALSE(client_.machines().At(MachineKey(2)).meta.deletion_timestamp);
}

// A Spot eviction removes the VM at once: the pool's next pass finds its
// machine orphaned and deletes the owner Machine (step 3).
TEST_F(AmpmTest, AnEvictedVmsOwnerMachineIsDeletedByThePool) {
  ConvergeThree();
  vmss_->Evict(1);
  RunTo(loop_.Now() + 31 * kSecond);
  ASSERT_FALSE(vmss_->vms().count(1));
  PoolPass();
  EXPECT_TRUE(client_.machines().At(MachineKey(1)).meta.deletion_timestamp);
  EXPECT_FALSE(client_.machines().At(MachineKey(0)).meta.deletion_timestamp);
}

// CAPZ's "if MachinePool is not externally managed, and Machines have delete
// machine annotation, and overProvisionCount > 0, delete machines with
// deleteMachine annotation first" (azure/scope/machinepool_test.go:1499 at
// v1.26.0, :1641 at HEAD): three machines, the middle one's owner Machine
// marked (not the machine itself), 2 replicas: the first and the last stay,
// where Oldest alone would take the first. applyAzureMachinePoolMachines
// copies the mark before selecting.
TEST_F(AmpmTest, TheOwnerMachinesDeleteMarkChoosesTheVictimAtHead) { ExpectTheMarkedMiddleGoes(); }

TEST_F(AmpmTest, TheOwnerMachinesDeleteMarkChoosesTheVictimInV1_26_0) {
  selection_ = DeleteSelection::kV1_26_0;
  ExpectTheMarkedMiddleGoes();
}

// The AzureMachinePoolMachine controller also writes the mark onto the
// machine (updateDeleteMachineAnnotation, machinepoolmachine.go:288-298):
// marked there alone, it chooses the victim too.
TEST_F(AmpmTest, TheMachinesOwnDeleteMarkChoosesTheVictim) {
  ConvergeThree();
  InfraMachine m = client_.infra_machines().At(MachineKey(2));
  m.meta.annotations[kDeleteMachineAnnotation] = "true";
  client_.infra_machines().Add(m);
  SetReplicas(2);
  PoolPass();
  EXPECT_FALSE(OwnerGoing(0));
  EXPECT_TRUE(OwnerGoing(2));
}

// Step 2 of SelectMachinesToDelete counts nothing: a marked Machine goes
// even before the replicas come down (the autoscaler marks, then patches
// the replicas). While it is being deleted it is returned again at every
// pass and holds back the scale-down that follows: only once it is gone
// does the over-provision take the oldest.
TEST_F(AmpmTest, AMarkedMachineGoesAtOnceAndHoldsLaterDeletionsBack) {
  ConvergeThree();
  MarkOwner(1);
  PoolPass();
  EXPECT_TRUE(OwnerGoing(1));
  SetReplicas(1);
  RunTo(loop_.Now() + 11 * kSecond);  // past the coalescing reconciler's 10 s
  PoolPass();
  EXPECT_FALSE(OwnerGoing(0));
  EXPECT_FALSE(OwnerGoing(2));
  // Core deletes the machine, whose VM goes; then core lets the Machine go.
  ASSERT_TRUE(client_.InfraMachines().Delete(MachineKey(1)).ok());
  MachinePass(1);
  RunTo(loop_.Now() + 31 * kSecond);
  MachinePass(1);
  ASSERT_FALSE(client_.infra_machines().Has(MachineKey(1)));
  client_.machines().Remove(MachineKey(1));
  PoolPass();
  EXPECT_TRUE(OwnerGoing(0));
  EXPECT_FALSE(OwnerGoing(2));
}

}  // namespace
}  // namespace mpsim::vmss
