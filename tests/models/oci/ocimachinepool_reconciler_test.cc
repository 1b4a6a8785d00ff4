// CAPOCI's OCIMachinePool controller against a real simulated instance pool
// and a fake API client: the upstream cases of docs/reference/oci-scaleway.md
// §4.1 (exp/controllers/ocimachinepool_controller_test.go and
// cloud/scope/machine_pool_test.go), and the requeues of §1.2, which no
// upstream test asserts, from the code they cite.
#include "models/oci/ocimachinepool_reconciler.h"

#include <gtest/gtest.h>

#include "tests/models/oci/oci_fixture.h"

namespace mpsim::oci {
namespace {

// TestReconciliationFunction / bootstrap data not ready (:264).
TEST_F(OciTest, BootstrapDataNotReadyWaitsWithoutRequeue) {
  Start(3, /*data_secret=*/"");
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(ConditionOf("InstancePoolReady"), "False/WaitingForBootstrapData/Info");
  EXPECT_EQ(Calls("oci:CreateInstancePool"), 0u);
  EXPECT_EQ(pool_->state(), InstancePoolState::kAbsent);
}

// TestReconciliationFunction / instance pool create (:271) and
// TestInstancePoolCreate / instance pool (machine_pool_test.go:1799): the
// create has size 3 (the fixture's replicas) and the configuration; the
// pass returns {} with no RequeueAfter (ctl:339-347).
TEST_F(OciTest, CreatesThePoolAtTheReplicasAndReturnsWithoutRequeue) {
  Start(3);
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(Calls("oci:CreateInstancePool"), 1u);
  EXPECT_EQ(ConditionOf("LaunchTemplateReady"), "True//");
  EXPECT_EQ(pool_->size(), 3);
  const std::string ic = Imp().spec.provider_spec.at(kInstanceConfigurationIdField);
  EXPECT_EQ(pool_->instance_configuration_id(), ic);
  EXPECT_EQ(ic.rfind("ocid1.instanceconfiguration.oc1.iad.", 0), 0u) << ic;
  EXPECT_TRUE(HasFinalizer(Imp().meta, kOciMachinePoolFinalizer));
}

// mp:795-798: a nil spec.replicas creates the pool at 1.
TEST_F(OciTest, NilReplicasCreatesOneInstance) {
  Start(3);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas.reset(); });
  Pass();
  EXPECT_EQ(pool_->size(), 1);
}

// ctl:354-361: PROVISIONING (and SCALING) requeue after 10 s with
// InstancePoolReady=False (InstancePoolNotReady, Info); the pool's
// spec.providerID is oci://<instance-pool OCID> (ctl:350-351).
TEST_F(OciTest, ProvisioningRequeuesAfterTenSeconds) {
  Start(3);
  Pass();
  ASSERT_EQ(pool_->state(), InstancePoolState::kProvisioning);
  EXPECT_EQ(Pass(), 10 * kSecond);
  EXPECT_EQ(ConditionOf("InstancePoolReady"), "False/InstancePoolNotReady/Info");
  EXPECT_EQ(Imp().spec.provider_spec.at(kProviderIdField), "oci://" + pool_->ocid());
  EXPECT_FALSE(Imp().spec.provider_id_list.has_value()) << "listed only in RUNNING";
}

// TestReconciliationFunction / instance pool running (:316): providerID
// oci://<instance OCID>, InstancePoolReady=True, no UpdateInstancePool as
// 3 = 3; then the 300 s resync (ctl:416) and status.replicas = the RUNNING
// count with ready true (ctl:404-405).
TEST_F(OciTest, RunningListsOciPrefixedInstanceOcidsAndResyncsEveryFiveMinutes) {
  Start(3);
  Pass();
  RunTo(2 * kMinute);
  EXPECT_EQ(Pass(), 300 * kSecond);
  EXPECT_EQ(ConditionOf("InstancePoolReady"), "True//");
  EXPECT_EQ(Calls("oci:UpdateInstancePool"), 0u);
  ASSERT_TRUE(Imp().spec.provider_id_list.has_value());
  ASSERT_EQ(Imp().spec.provider_id_list->size(), 3u);
  for (const SharedString& id : *Imp().spec.provider_id_list) {
    EXPECT_EQ(id.str().rfind("oci://ocid1.instance.oc1.iad.", 0), 0u) << id.str();
  }
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(3));
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
}

// oci_managed_cluster.go:109-111: with an OCIManagedCluster the instance's
// providerID is the bare OCID.
TEST_F(OciTest, ManagedClusterListsBareInstanceOcids) {
  Start(2, "mp-0-boot", OciTestFleet(""));
  Pass();
  RunTo(2 * kMinute);
  Pass();
  ASSERT_EQ(Imp().spec.provider_id_list->size(), 2u);
  for (const SharedString& id : *Imp().spec.provider_id_list) {
    EXPECT_EQ(id.str().rfind("ocid1.instance.oc1.iad.", 0), 0u) << id.str();
  }
}

// ctl:377-383: only RUNNING instances are listed, and the list is rebuilt
// only in the RUNNING branch: while SCALING it keeps its last value.
TEST_F(OciTest, ScalingKeepsTheLastListUntilRunningAgain) {
  StartRunning(3);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 5; });
  EXPECT_EQ(Pass(), 300 * kSecond) << "the RUNNING pass that sends the update";
  EXPECT_EQ(Calls("oci:UpdateInstancePool"), 1u);
  ASSERT_EQ(pool_->state(), InstancePoolState::kScaling);
  EXPECT_EQ(Pass(), 10 * kSecond);
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 3u);
  RunTo(loop_.Now() + 2 * kMinute);
  EXPECT_EQ(Pass(), 300 * kSecond);
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 5u);
}

// TestReconciliationFunction / instance pool running with externally
// managed replicas (:387) and TestSyncReplicasFromInstancePool / annotation
// set (machine_pool_test.go:2130): the pool's size 4 becomes
// MachinePool.spec.replicas; TestInstancePoolUpdate / annotation set
// (:2010): no UpdateInstancePool.
TEST_F(OciTest, AutoscalerAnnotationCopiesThePoolSizeIntoReplicas) {
  StartRunning(3);
  ASSERT_TRUE(pool_->Update(4, pool_->instance_configuration_id()).ok());
  RunTo(loop_.Now() + 2 * kMinute);
  SetMachinePool([](MachinePool* mp) {
    mp->meta.annotations["cluster.x-k8s.io/replicas-managed-by"] = "external-autoscaler";
  });
  Pass();
  EXPECT_EQ(Mp().spec.replicas, std::optional<int32_t>(4));
  EXPECT_EQ(Calls("oci:UpdateInstancePool"), 0u);
}

// TestSyncReplicasFromInstancePool / annotation not set (:2122): replicas
// stay 3, and the pool is sized back to them.
TEST_F(OciTest, WithoutTheAnnotationReplicasStayAndThePoolFollows) {
  StartRunning(3);
  ASSERT_TRUE(pool_->Update(4, pool_->instance_configuration_id()).ok());
  RunTo(loop_.Now() + 2 * kMinute);
  Pass();
  EXPECT_EQ(Mp().spec.replicas, std::optional<int32_t>(3));
  EXPECT_EQ(Calls("oci:UpdateInstancePool"), 1u);
  EXPECT_EQ(pool_->size(), 3);
}

// TestInstancePoolUpdate / no update (:1977) and / instance pool update
// (:1988): a new configuration is sent as {Size 3, the new configuration};
// the instances already there keep the old version (oci-scaleway.md §1.4).
TEST_F(OciTest, ANewVersionIsANewConfigurationForNewInstancesOnly) {
  StartRunning(3);
  Pass();
  EXPECT_EQ(Calls("oci:UpdateInstancePool"), 0u) << "no update";
  const std::string old_ic = pool_->instance_configuration_id();
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  Pass();
  EXPECT_EQ(Calls("oci:CreateInstanceConfiguration"), 2u);
  EXPECT_EQ(Calls("oci:UpdateInstancePool"), 1u);
  EXPECT_NE(pool_->instance_configuration_id(), old_ic);
  EXPECT_EQ(pool_->size(), 3);
  EXPECT_EQ(pool_->state(), InstancePoolState::kRunning) << "no instance is replaced";
  for (const auto& [seq, m] : pool_->instances().members()) EXPECT_EQ(m.version, "v1.30.0");
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 4; });
  Pass();
  RunTo(loop_.Now() + 2 * kMinute);
  int new_version = 0;
  for (const auto& [seq, m] : pool_->instances().members()) new_version += m.version == "v1.31.0";
  EXPECT_EQ(new_version, 1);
}

// TestInstanceConfigCreate: a change of the bootstrap data alone (the
// kubeadm token) is a new instance configuration (mp:534-538).
TEST_F(OciTest, ANewJoinTokenIsANewConfiguration) {
  StartRunning(3);
  fake::RotateJoinToken(&client_, "mp-0-boot");
  Pass();
  EXPECT_EQ(Calls("oci:CreateInstanceConfiguration"), 2u);
  EXPECT_EQ(Calls("oci:UpdateInstancePool"), 1u);
}

// mp:825-828: the update sends a nil spec.replicas as size 0.
TEST_F(OciTest, NilReplicasUpdatesToSizeZero) {
  StartRunning(2);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas.reset(); });
  Pass();
  EXPECT_EQ(pool_->size(), 0);
}

// TestReconciliationFunction / instance pool failed (:577): TERMINATED in
// normal reconcile is an error with InstancePoolReady=False (Error,
// InstancePoolProvisionFailed); the failure reason makes it terminal
// (ctl:295-299, :406-412).
TEST_F(OciTest, AnUnexpectedStateIsATerminalFailure) {
  StartRunning(2);
  ASSERT_TRUE(pool_->Terminate().ok());
  RunTo(loop_.Now() + kMinute);
  ASSERT_EQ(pool_->state(), InstancePoolState::kTerminated);
  Duration d = 0;
  EXPECT_FALSE(PassStatus(&d).ok());
  EXPECT_EQ(ConditionOf("InstancePoolReady"), "False/InstancePoolProvisionFailed/Error");
  EXPECT_EQ(Imp().status.failure_reason, std::optional<std::string>("CreateError"));
  const uint64_t calls = Calls("oci:ListInstancePools");
  EXPECT_TRUE(PassStatus(&d).ok());
  EXPECT_EQ(d, 0);
  EXPECT_EQ(Calls("oci:ListInstancePools"), calls) << "HasFailed returns before any call";
}

// oci-scaleway.md §5 row 1: TERMINATING outside deletion is the default
// branch too (an error and a terminal failure), not a 30 s requeue.
TEST_F(OciTest, TerminatingOutsideDeletionIsNotAThirtySecondRequeue) {
  StartRunning(2);
  ASSERT_TRUE(pool_->Terminate().ok());
  ASSERT_EQ(pool_->state(), InstancePoolState::kTerminating);
  Duration d = 0;
  EXPECT_FALSE(PassStatus(&d).ok());
  EXPECT_EQ(d, 0);
  EXPECT_EQ(Imp().status.failure_message,
            std::optional<std::string>("Instance Pool status \"TERMINATING\" is unexpected"));
}

// TestDeleteeconciliationFunction / instance pool running (:724):
// TerminateInstancePool, then 30 s (ctl:447-454); TERMINATING polls at 30 s
// (ctl:437-440); / instance pool terminated (:747): the instance
// configuration is deleted and the finalizer goes.
TEST_F(OciTest, DeletionTerminatesPollsAndRemovesTheFinalizer) {
  StartRunning(2);
  MarkDeleted();
  EXPECT_EQ(Pass(), 30 * kSecond);
  EXPECT_EQ(Calls("oci:TerminateInstancePool"), 1u);
  EXPECT_EQ(pool_->state(), InstancePoolState::kTerminating);
  EXPECT_EQ(Pass(), 30 * kSecond);
  EXPECT_EQ(Calls("oci:TerminateInstancePool"), 1u);
  RunTo(loop_.Now() + kMinute);
  ASSERT_EQ(pool_->state(), InstancePoolState::kTerminated);
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(Calls("oci:DeleteInstanceConfiguration"), 1u);
  // The finalizer went with the condition's patch, so the object is gone.
  EXPECT_EQ(client_.InfraMachinePools().GetShared(kOciKey), nullptr);
}

}  // namespace
}  // namespace mpsim::oci
