// CAPOCI's OCIManagedMachinePool controller against a real simulated OKE
// node pool and a fake API client: the upstream cases of
// docs/reference/oci-scaleway.md §4.2 (exp/controllers/
// ocimanaged_machinepool_controller_test.go and cloud/scope/
// managed_machine_pool_test.go), and the requeues of §2.2, which no
// upstream test asserts, from the code they cite.
#include "models/oci/ocimanagedmachinepool_reconciler.h"

#include <gtest/gtest.h>

#include "tests/models/oci/oci_fixture.h"

namespace mpsim::oci {
namespace {

// TestNormalReconciliationFunction / node pool create (:328): CreateNodePool,
// GetWorkRequest and GetNodePool, and the same pass goes on with the new
// pool, which is CREATING: NodePoolReady=False (Info), 30 s (mctl:307-314).
TEST_F(OkeTest, CreateReadsThePoolBackAndRequeuesWhileCreating) {
  Start(3);
  EXPECT_EQ(Pass(), 30 * kSecond);
  EXPECT_EQ(Calls("oke:CreateNodePool"), 1u);
  EXPECT_EQ(Calls("oke:GetWorkRequest"), 1u);
  EXPECT_EQ(Calls("oke:GetNodePool"), 1u);
  EXPECT_EQ(pool_->state(), NodePoolState::kCreating);
  EXPECT_EQ(pool_->size(), 3);
  EXPECT_EQ(ConditionOf("NodePoolReady"), "False/NodePoolNotReady/Info");
  EXPECT_EQ(Imp().spec.provider_spec.at(kProviderIdField), "oci://" + pool_->ocid());
  EXPECT_EQ(pool_->ocid().rfind("ocid1.nodepool.oc1.iad.", 0), 0u) << pool_->ocid();
  EXPECT_TRUE(HasFinalizer(Imp().meta, kOciManagedMachinePoolFinalizer));
}

// TestNormalReconciliationFunction / node pool is created, no update (:358):
// NodePoolReady=True and no UpdateNodePool; the providerIDs are the bare
// OCIDs of the ACTIVE nodes (mmp:140-149) and the resync is 300 s (mctl:348).
TEST_F(OkeTest, ActiveListsBareNodeOcidsAndResyncsEveryFiveMinutes) {
  StartActive(3);
  EXPECT_EQ(Pass(), 300 * kSecond);
  EXPECT_EQ(ConditionOf("NodePoolReady"), "True//");
  EXPECT_EQ(Calls("oke:UpdateNodePool"), 0u);
  ASSERT_EQ(Imp().spec.provider_id_list->size(), 3u);
  for (const SharedString& id : *Imp().spec.provider_id_list) {
    EXPECT_EQ(id.str().rfind("ocid1.instance.oc1.iad.", 0), 0u) << id.str();
  }
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(3));
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
}

// TestNormalReconciliationFunction / node pool in created, update (:417) and
// TestManagedMachinePoolUpdate / update due to change in k8s version
// (managed_machine_pool_test.go:1304): UpdateNodePool with the new version,
// NodePoolReady=True, then 30 s (mctl:334-340); / node pool in update state
// (:503): UPDATING is no error, 30 s (mctl:315-321).
TEST_F(OkeTest, AVersionChangeIsAnUpdateThenThirtySecondPolls) {
  StartActive(3);
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  EXPECT_EQ(Pass(), 30 * kSecond);
  EXPECT_EQ(Calls("oke:UpdateNodePool"), 1u);
  EXPECT_EQ(ConditionOf("NodePoolReady"), "True//");
  EXPECT_EQ(pool_->version(), "v1.31.0");
}

// TestManagedMachinePoolUpdate / update due to change in replica size
// (:1063): the update carries size 4; / nodepool no change (:968): no call.
TEST_F(OkeTest, AReplicaChangeIsAnUpdateOfTheSize) {
  StartActive(3);
  Pass();
  EXPECT_EQ(Calls("oke:UpdateNodePool"), 0u);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 4; });
  EXPECT_EQ(Pass(), 30 * kSecond);
  EXPECT_EQ(Calls("oke:UpdateNodePool"), 1u);
  EXPECT_EQ(pool_->size(), 4);
  EXPECT_EQ(pool_->state(), NodePoolState::kUpdating);
  EXPECT_EQ(Pass(), 30 * kSecond) << "UPDATING";
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 3u) << "listed only while ACTIVE";
  RunTo(loop_.Now() + 2 * kMinute);
  EXPECT_EQ(Pass(), 300 * kSecond);
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 4u);
}

// TestManagedMachinePoolUpdate / no update ... annotation is set (:1202).
TEST_F(OkeTest, TheAutoscalerAnnotationKeepsTheSize) {
  StartActive(3);
  SetMachinePool([](MachinePool* mp) {
    mp->spec.replicas = 4;
    mp->meta.annotations["cluster.x-k8s.io/replicas-managed-by"] = "external-autoscaler";
  });
  EXPECT_EQ(Pass(), 300 * kSecond);
  EXPECT_EQ(Calls("oke:UpdateNodePool"), 0u);
  EXPECT_EQ(pool_->size(), 3);
  EXPECT_EQ(Mp().spec.replicas, std::optional<int32_t>(4)) << "nothing copies the size back";
}

// TestDeletionFunction / node pool to be deleted (:610): DeleteNodePool and
// NodePoolReady=False (Warning, NodePoolDeletionInProgress), 30 s
// (mctl:450-459); / node pool deleting (:653): DeletionInProgress, 30 s
// (mctl:438-444); / node pool deleted (:670): the finalizer goes
// (mctl:445-449).
TEST_F(OkeTest, DeletionDeletesPollsAndRemovesTheFinalizer) {
  StartActive(2);
  MarkDeleted();
  EXPECT_EQ(Pass(), 30 * kSecond);
  EXPECT_EQ(Calls("oke:DeleteNodePool"), 1u);
  EXPECT_EQ(ConditionOf("NodePoolReady"), "False/NodePoolDeletionInProgress/Warning");
  EXPECT_EQ(Pass(), 30 * kSecond);
  EXPECT_EQ(ConditionOf("NodePoolReady"), "False/DeletionInProgress/Warning");
  EXPECT_EQ(Calls("oke:DeleteNodePool"), 1u);
  RunTo(loop_.Now() + kMinute);
  ASSERT_EQ(pool_->state(), NodePoolState::kDeleted);
  EXPECT_EQ(Pass(), 0);
  // The finalizer went with the condition's patch, so the object is gone.
  EXPECT_EQ(client_.InfraMachinePools().GetShared(kOciKey), nullptr);
}

// TestDeletionFunction / node pool not found (:631, :642): no error and
// no DeleteNodePool; the finalizer goes (mctl:416-422).
TEST_F(OkeTest, DeletingAPoolThatWasNeverCreatedIsNotFound) {
  Start(2);
  InfraMachinePool imp = Imp();
  imp.meta.finalizers.push_back(kOciManagedMachinePoolFinalizer);
  client_.infra_machine_pools().Add(imp);
  MarkDeleted();
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(Calls("oke:DeleteNodePool"), 0u);
  EXPECT_EQ(client_.InfraMachinePools().GetShared(kOciKey), nullptr);
}

// Without nodePoolCyclingDetails a new version reaches only nodes added
// later (oci-scaleway.md §2.4).
TEST_F(OkeTest, WithoutCyclingExistingNodesKeepTheirVersion) {
  StartActive(2);
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  Pass();
  RunTo(loop_.Now() + 5 * kMinute);
  EXPECT_EQ(pool_->state(), NodePoolState::kActive);
  for (const auto& [seq, m] : pool_->nodes().members()) EXPECT_EQ(m.version, "v1.30.0");
}

}  // namespace
}  // namespace mpsim::oci
