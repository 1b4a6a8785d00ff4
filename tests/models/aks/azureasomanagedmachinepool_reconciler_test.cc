// CAPZ's AzureASOManagedMachinePool controller against a simulated AKS
// agent pool and its ASO resource (docs/reference/azure-managed.md §2), with
// the cases of TestAzureASOManagedMachinePoolReconcile (§5.4) and of the
// mutators' and resource reconciler's tests (§5.5) that apply.
#include "models/aks/azureasomanagedmachinepool_reconciler.h"

#include <gtest/gtest.h>

#include "tests/models/aks/aks_test_fixture.h"

namespace mpsim::aks {
namespace {

class AsoKindTest : public AksTest {
 protected:
  // A Node of the workload cluster as the fake client lists it.
  void AddNode(const std::string& name, const std::string& provider_id, bool labelled) {
    Node n;
    n.meta.name = name;
    if (labelled) {
      n.meta.labels[kAgentPoolLabel] = opts_.agent_pool_name;
      n.meta.labels[kClusterLabel] = opts_.node_resource_group;
    }
    n.spec.provider_id = provider_id;
    client_.nodes().Add(n);
  }
  // Passes until the ASO resource is applied and ready with status.count.
  void UntilAsoReady() {
    Result r = Pass();  // finalizer: Requeue
    ASSERT_TRUE(r.requeue);
    Pass();  // the kind recorded
    Pass();  // applied
    RunTo(loop_.Now() + 10 * kMinute);
    ASSERT_TRUE(aso_->ready().status);
  }
};

// "AzureASOManagedMachinePool does not exist" (:70): {} and no error.
TEST_F(AsoKindTest, MissingPoolIsNoError) {
  StartAso(3);
  client_.infra_machine_pools().Delete(kAksKey);
  const Result r = Pass();
  EXPECT_EQ(r, Result{});
}

// "MachinePool does not exist" (:83): an error naming machinepools.
TEST_F(AsoKindTest, MissingMachinePoolIsAnError) {
  StartAso(3);
  client_.machine_pools().Delete(kAksKey);
  Status s;
  Pass(&s);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("machinepools"), std::string::npos);
}

// "adds a finalizer and block-move annotation" (:148): Requeue true.
TEST_F(AsoKindTest, AddsTheFinalizerAndRequeues) {
  StartAso(3);
  const Result r = Pass();
  EXPECT_TRUE(r.requeue);
  EXPECT_TRUE(HasFinalizer(Imp().meta, kAzureAsoManagedMachinePoolFinalizer));
}

// TestResourceReconcilerReconcile "new kinds only recorded, not created"
// (:82), then "reconciles resources that are not ready" (:200): {} with
// ready false, no requeue (the ASO watch brings the next pass).
TEST_F(AsoKindTest, ANewKindIsRecordedThenANotReadyResourceEndsThePassWithoutRequeue) {
  StartAso(3);
  Pass();
  EXPECT_EQ(Pass(), Result{});
  EXPECT_FALSE(aso_->exists()) << "recorded, not created";
  EXPECT_EQ(Pass(), Result{});
  EXPECT_TRUE(aso_->exists());
  EXPECT_EQ(aso_->reconcile_policy(), "manage");
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
}

// "successfully reconciles normally" (:286): status.count 3; Nodes node1 and
// node2 with both labels and one without: providerIDList [azure://node1,
// azure://node2], status.replicas 3 (from status.count, not 2), ready true,
// the MachinePool's replicas untouched.
TEST_F(AsoKindTest, ProviderIdsFromLabelledNodesAndReplicasFromStatusCount) {
  StartAso(3);
  UntilAsoReady();
  AddNode("node2", "azure://node2", true);
  AddNode("node1", "azure://node1", true);
  AddNode("no-labels", "azure://no-labels", false);
  EXPECT_EQ(Pass(), Result{});
  const InfraMachinePool& imp = Imp();
  ASSERT_TRUE(imp.spec.provider_id_list);
  ASSERT_EQ(imp.spec.provider_id_list->size(), 2u);
  EXPECT_EQ(imp.spec.provider_id_list->vec()[0].str(), "azure://node1");
  EXPECT_EQ(imp.spec.provider_id_list->vec()[1].str(), "azure://node2");
  EXPECT_EQ(imp.status.replicas, std::optional<int32_t>(3));
  EXPECT_EQ(imp.status.ready, std::optional<bool>(true));
  EXPECT_EQ(Mp().spec.replicas, std::optional<int32_t>(3));
}

// §2.5: the cluster label's value is the node resource group, not the
// cluster's name: Nodes labelled with another value are not the pool's.
TEST_F(AsoKindTest, TheClusterLabelHoldsTheNodeResourceGroup) {
  StartAso(3);
  UntilAsoReady();
  Node n;
  n.meta.name = "elsewhere";
  n.meta.labels[kAgentPoolLabel] = opts_.agent_pool_name;
  n.meta.labels[kClusterLabel] = "mpsim-aks";
  n.spec.provider_id = "azure://elsewhere";
  client_.nodes().Add(n);
  Pass();
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 0u);
}

// §2.2 step 10 (actl:270-277): a labelled Node without a providerID gives
// Requeue (rate-limited), the list is not written and ready stays false.
TEST_F(AsoKindTest, ANodeWithoutProviderIdRequeuesAndWritesNoList) {
  StartAso(3);
  UntilAsoReady();
  AddNode("node1", "azure://node1", true);
  AddNode("node2", "", true);
  const Result r = Pass();
  EXPECT_TRUE(r.requeue);
  EXPECT_EQ(r.requeue_after, 0);
  EXPECT_FALSE(Imp().spec.provider_id_list);
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
}

// "successfully reconciles normally with autoscaling" (:428): the mutator
// adds replicas-managed-by "aks" and the MachinePool's replicas become
// status.count (3).
TEST_F(AsoKindTest, AutoscalingAnnotatesAndCopiesStatusCount) {
  AksOptions o = ConstantAksOptions();
  o.autoscaling = true;
  o.min_count = 1;
  o.max_count = 10;
  StartAso(3, o);
  UntilAsoReady();
  EXPECT_EQ(Mp().meta.annotations.at(kReplicasManagedByAnnotation), kAksReplicasManager);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 1; });
  Pass();
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(3));
  EXPECT_EQ(Mp().spec.replicas, std::optional<int32_t>(3));
}

// TestSetAgentPoolCount "annotated and existing status.count" (:381): no
// count is sent once the pool has a status.count and the MachinePool is
// annotated, so the MachinePool's replicas no longer move the pool (§2.5).
TEST_F(AsoKindTest, AnnotatedMachinePoolSendsNoCount) {
  StartAso(2);
  SetMachinePool(
      [](MachinePool* mp) { mp->meta.annotations[kReplicasManagedByAnnotation] = "external"; });
  UntilAsoReady();
  Pass();
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 5; });
  Pass();
  EXPECT_EQ(aso_->spec().count, std::optional<int32_t>(2));
  EXPECT_EQ(Mp().spec.replicas, std::optional<int32_t>(2)) << "overwritten by status.count";
}

// TestReadyStatus "observedGeneration behind generation" (resource_reconciler_test.go:557):
// right after a count change the resource reads as not ready.
TEST_F(AsoKindTest, ANewGenerationIsNotReadyUntilAsoObservesIt) {
  StartAso(2);
  UntilAsoReady();
  Pass();
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 4; });
  EXPECT_EQ(Pass(), Result{});
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
  EXPECT_EQ(aso_->spec().count, std::optional<int32_t>(4));
}

// "successfully reconciles delete" (:600): {} and no error; the finalizer
// goes once the ASO resource is gone.
TEST_F(AsoKindTest, DeleteWaitsForTheAsoResource) {
  StartAso(2);
  UntilAsoReady();
  InfraMachinePool imp = Imp();
  imp.meta.deletion_timestamp = loop_.Now();
  client_.infra_machine_pools().Add(imp);
  EXPECT_EQ(Pass(), Result{});
  RunTo(loop_.Now() + 10 * kMinute);
  EXPECT_FALSE(aso_->exists());
  EXPECT_EQ(Pass(), Result{});
  const auto left = client_.InfraMachinePools().GetShared(kAksKey);
  EXPECT_TRUE(left == nullptr || !HasFinalizer(left->meta, kAzureAsoManagedMachinePoolFinalizer));
}

}  // namespace
}  // namespace mpsim::aks
