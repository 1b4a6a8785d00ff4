// CAPZ's AzureManagedMachinePool controller against a simulated AKS agent
// pool and its ASO resource (docs/reference/azure-managed.md §1), with the
// cases of TestAzureManagedMachinePoolReconcile, TestCreateOrUpdateResource,
// TestPostCreateOrUpdateResourceHook, TestParameters, the scope's
// Autoscaling and version tests and TestCoalescingReconciler_Reconcile
// (§5.1-§5.5) that apply to a simulation.
#include "models/aks/azuremanagedmachinepool_reconciler.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/models/aks/aks_test_fixture.h"

namespace mpsim::aks {
namespace {

using AmmpTest = AksTest;

bool AmmpSortedAsStrings(const ProviderIDList& ids) {
  return std::is_sorted(ids.begin(), ids.end(), [](const SharedString& a, const SharedString& b) {
    return a.str() < b.str();
  });
}

// TestCreateOrUpdateResource "create resource that doesn't already exist"
// (aso_test.go:140): OperationNotDone, transient; created under reconcile
// policy `skip`. The AMMP returns RequeueAfter 20 s (aso.go:52) with ready false.
TEST_F(AmmpTest, FirstPassCreatesTheAsoResourceUnderSkipAndRequeues20s) {
  StartAmmp(3);
  const Result r = Pass();
  EXPECT_EQ(r.requeue_after, 20 * kSecond);
  EXPECT_TRUE(aso_->exists());
  EXPECT_EQ(aso_->reconcile_policy(), "skip");
  EXPECT_EQ(aso_->spec().count, std::optional<int32_t>(3));
  EXPECT_EQ(aso_->spec().orchestrator_version, "1.30.0") << "the `v` is dropped (scope:356-370)";
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
  EXPECT_FALSE(aks_->exists()) << "no AKS PUT under skip";
}

// "ready status unknown" (aso_test.go:103): no Ready condition yet is a
// transient 20 s error, and the resource is not adopted without one.
TEST_F(AmmpTest, NoReadyConditionIsTransient20sAndNotAdopted) {
  AksOptions o = ConstantAksOptions();
  o.aso_reconcile_delay = DistSpec::Constant(kMinute);
  StartAmmp(3, o);
  Pass();
  RunTo(20 * kSecond);
  EXPECT_EQ(Pass().requeue_after, 20 * kSecond);
  EXPECT_EQ(aso_->reconcile_policy(), "skip");
}

// "adopt managed resource in not found state" (aso_test.go:423): under skip
// with reason AzureResourceNotFound the policy becomes manage and the
// resource is patched (OperationNotDone, 20 s); ASO then creates the pool.
TEST_F(AmmpTest, AzureResourceNotFoundUnderSkipIsAdopted) {
  StartAmmp(3);
  Pass();
  RunTo(20 * kSecond);
  ASSERT_EQ(aso_->ready().reason, "AzureResourceNotFound");
  EXPECT_EQ(Pass().requeue_after, 20 * kSecond);
  EXPECT_EQ(aso_->reconcile_policy(), "manage");
  RunTo(30 * kSecond);
  EXPECT_TRUE(aks_->exists());
}

// TestAzureManagedMachinePoolReconcile "Reconcile succeed" (:63): the VMs
// listed, sorted as strings (156, 12, 100 -> 100, 12, 156 upstream; here 13
// VMs, 0..12, so "10" sorts before "2"), replicas their number, ready true,
// and no requeue (ctl:297-299). Each ID is `azure:///` with the node
// resource group lowercased (§1.5).
TEST_F(AmmpTest, ConvergedPassWritesSortedProviderIdsReplicasAndReady) {
  StartAmmp(13);
  FollowRequeues();
  RunTo(loop_.Now() + 10 * kMinute);
  const Result r = Pass();
  EXPECT_EQ(r.requeue_after, 0);
  EXPECT_FALSE(r.requeue);
  const InfraMachinePool& imp = Imp();
  ASSERT_TRUE(imp.spec.provider_id_list);
  const ProviderIDList& ids = *imp.spec.provider_id_list;
  ASSERT_EQ(ids.size(), 13u);
  EXPECT_TRUE(AmmpSortedAsStrings(ids));
  EXPECT_EQ(ids.vec()[0].str(),
            "azure:///subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/"
            "mc_myresourcegroupname_aks_eastus/providers/Microsoft.Compute/"
            "virtualMachineScaleSets/" +
                vmss_->name() + "/virtualMachines/0");
  EXPECT_TRUE(ids.vec()[2].str().ends_with("/virtualMachines/10"));
  EXPECT_EQ(imp.status.replicas, std::optional<int32_t>(13));
  EXPECT_EQ(imp.status.ready, std::optional<bool>(true));
}

// rec:149-151: no scale set tagged with the pool's name is a transient
// error of 20 s, and ready is false (ctl:270).
TEST_F(AmmpTest, ScaleSetNotFoundRequeues20s) {
  StartAmmp(2);
  FollowRequeues();
  RunTo(loop_.Now() + 10 * kMinute);
  AksOptions other = opts_;
  other.agent_pool_name = "other";
  std::map<std::string, AzureManagedMachinePoolReconciler::Pool> pools{
      {"mp-0", {vmss_.get(), aso_.get(), &other}}};
  ammp_ =
      std::make_unique<AzureManagedMachinePoolReconciler>(&client_, &loop_, &rec_, &arm_, pools);
  EXPECT_EQ(Pass().requeue_after, 20 * kSecond);
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
}

// §1.4 consequence and §4.2: while ASO is busy with a scale, every pass
// ends 20 s later before the listing, with ready false and the list frozen.
TEST_F(AmmpTest, WhileAsoIsBusyTheListIsFrozenAndReadyFalse) {
  StartAmmp(3);
  FollowRequeues();
  RunTo(loop_.Now() + 10 * kMinute);
  Pass();
  ASSERT_EQ(Imp().spec.provider_id_list->size(), 3u);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 6; });
  RunTo(loop_.Now() + 11 * kSecond);  // past the debounce
  EXPECT_EQ(Pass().requeue_after, 20 * kSecond) << "patched: OperationNotDone";
  // The scale takes 10 s (operation) + 60 s (launch) + 2 s (ASO): three
  // more passes find ASO busy.
  for (int i = 0; i < 3; ++i) {
    RunTo(loop_.Now() + 20 * kSecond);
    EXPECT_EQ(Pass().requeue_after, 20 * kSecond);
    EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
    EXPECT_EQ(Imp().spec.provider_id_list->size(), 3u);
  }
  EXPECT_GT(vmss_->vms().size(), 3u) << "the VMs exist, the list does not show them";
  FollowRequeues();
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 6u);
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
}

// "resource is not ready in terminal state" (aso_test.go:294) and ctl:280-284:
// AKS refuses 1001 nodes; ASO's Error condition is terminal: no requeue, no
// error, ready false (§6 #13: CAPZ itself does not validate the limit).
TEST_F(AmmpTest, AnErrorConditionIsTerminalWithNoRequeue) {
  StartAmmp(1001);
  FollowRequeues();
  EXPECT_EQ(aso_->ready().severity, "Error");
  RunTo(loop_.Now() + 11 * kSecond);  // past the debounce
  const Result r = Pass();
  EXPECT_EQ(r.requeue_after, 0);
  EXPECT_FALSE(r.requeue);
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
  EXPECT_FALSE(aks_->exists());
}

// TestCoalescingReconciler_Reconcile: within the window after a pass without
// error the request is only requeued for the time left (10 s here, main.go:199-203).
TEST_F(AmmpTest, APassWithin10sOfTheLastIsOnlyRequeuedForTheRest) {
  StartAmmp(3);
  Pass();
  RunTo(3 * kSecond);
  EXPECT_EQ(Pass().requeue_after, 7 * kSecond);
  EXPECT_FALSE(aso_->reconcile_policy() == "manage");
}

// TestManagedMachinePoolScope_Autoscaling "Without Autoscaling": a
// MachinePool without replicas asks for 1.
TEST_F(AmmpTest, MachinePoolWithoutReplicasAsksForOne) {
  StartAmmp(3);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas.reset(); });
  Pass();
  EXPECT_EQ(aso_->spec().count, std::optional<int32_t>(1));
}

// TestParameters "with existing agent pool" (spec_test.go:225): the pool's
// version 1.27.2 is kept over the desired 1.26.6; under autoscaling the
// count is the existing status.count, not the replicas.
TEST_F(AmmpTest, ParametersNeverDowngradeAndKeepTheAutoscaledCount) {
  MakeModel();
  aso_->Create({.count = 4, .orchestrator_version = "1.27.2"}, "manage");
  RunTo(5 * kMinute);
  ASSERT_EQ(aso_->status_version(), "1.27.2");
  const AsoAgentPoolSpec s =
      BuildAgentPoolSpec(3, std::string("v1.26.6"), /*autoscaling=*/true, *aso_);
  EXPECT_EQ(s.orchestrator_version, "1.27.2");
  EXPECT_EQ(s.count, std::optional<int32_t>(4));
  const AsoAgentPoolSpec up = BuildAgentPoolSpec(3, std::string("v1.28.0"), false, *aso_);
  EXPECT_EQ(up.orchestrator_version, "1.28.0");
  EXPECT_EQ(up.count, std::optional<int32_t>(3));
}

// Test_getManagedMachinePoolVersion: numeric comparison of versions.
TEST(AmmpVersions, ComparedNumerically) {
  EXPECT_TRUE(VersionLess("1.15.0", "1.20.3"));
  EXPECT_FALSE(VersionLess("1.21.0", "1.20.3"));
  EXPECT_TRUE(VersionLess("1.9.0", "1.10.0"));
  EXPECT_FALSE(VersionLess("1.20.3", "1.20.3"));
}

// TestPostCreateOrUpdateResourceHook "autoscaling enabled" (agentpools_test.go:60):
// the annotation is "true" and the MachinePool's replicas are status.count;
// "autoscaling disabled" (:43): the annotation is removed.
TEST_F(AmmpTest, AutoscalingCopiesStatusCountIntoTheMachinePool) {
  AksOptions o = ConstantAksOptions();
  o.autoscaling = true;
  o.min_count = 1;
  o.max_count = 10;
  StartAmmp(3, o);
  FollowRequeues();
  RunTo(loop_.Now() + 10 * kMinute);
  Pass();
  EXPECT_EQ(Mp().meta.annotations.at(kReplicasManagedByAnnotation), "true");
  EXPECT_EQ(Mp().spec.replicas, std::optional<int32_t>(3));
}

TEST_F(AmmpTest, WithoutAutoscalingTheAnnotationIsRemoved) {
  StartAmmp(2);
  SetMachinePool(
      [](MachinePool* mp) { mp->meta.annotations[kReplicasManagedByAnnotation] = "external"; });
  FollowRequeues();
  RunTo(loop_.Now() + 10 * kMinute);
  Pass();
  EXPECT_FALSE(Mp().meta.annotations.contains(kReplicasManagedByAnnotation));
}

// An upgrade: the new orchestratorVersion is sent and the pool converges on it.
TEST_F(AmmpTest, AnUpgradeConvergesOnTheNewVersion) {
  StartAmmp(10);
  FollowRequeues();
  RunTo(loop_.Now() + 10 * kMinute);
  Pass();
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  RunTo(loop_.Now() + 11 * kSecond);
  FollowRequeues();
  EXPECT_EQ(aks_->orchestrator_version(), "1.31.0");
  EXPECT_EQ(VmsOn("1.31.0"), 10);
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(10));
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
}

// reconcileDelete with the Cluster alive (ctl:346-360): the ASO resource
// goes, 20 s at a time, then the finalizer.
TEST_F(AmmpTest, DeletionDeletesTheAsoResourceThenTheFinalizer) {
  StartAmmp(2);
  FollowRequeues();
  RunTo(loop_.Now() + 10 * kMinute);
  Pass();
  ASSERT_TRUE(HasFinalizer(Imp().meta, kAzureManagedMachinePoolFinalizer));
  InfraMachinePool imp = Imp();
  imp.meta.deletion_timestamp = loop_.Now();
  client_.infra_machine_pools().Add(imp);
  RunTo(loop_.Now() + 11 * kSecond);
  EXPECT_EQ(Pass().requeue_after, 20 * kSecond);
  FollowRequeues();
  EXPECT_FALSE(aso_->exists());
  EXPECT_FALSE(aks_->exists());
  const auto left = client_.InfraMachinePools().GetShared(kAksKey);
  EXPECT_TRUE(left == nullptr || !HasFinalizer(left->meta, kAzureManagedMachinePoolFinalizer));
}

}  // namespace
}  // namespace mpsim::aks
