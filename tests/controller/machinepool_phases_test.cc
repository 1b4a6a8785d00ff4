// TestReconcileMachinePoolPhases (machinepool_controller_phases_test.go),
// cases P1-P11 of docs/reference/capi-core.md §6.1: doReconcile of the normal step list on an
// in-memory MachinePool, then reconcilePhase, with no deferred block.
#include <gtest/gtest.h>

#include "controller/machinepool_internal.h"
#include "tests/testing/machinepool_fixtures.h"

namespace mpsim {
namespace {

using fake::BootstrapRef;
using fake::Harness;
using fake::MakeBootstrap;
using fake::MakeCluster;
using fake::MakeInfra;
using fake::NodeRef;
using fake::ReadyBootstrap;

class ReconcileMachinePoolPhases : public ::testing::Test {
 protected:
  // Seeds the fake client as the upstream case does and runs doReconcile.
  Status Run(MachinePool* mp, const BootstrapConfig& boot, const InfraMachinePool& infra,
             Result* res) {
    h_.client.clusters().Add(cluster_);
    h_.client.machine_pools().Add(*mp);
    h_.client.bootstrap_configs().Add(boot);
    h_.client.infra_machine_pools().Add(infra);
    return h_.RunNormal(cluster_, mp, res);
  }
  static InfraMachinePool ReadyInfra(std::vector<std::string> ids,
                                     std::optional<int32_t> replicas) {
    InfraMachinePool infra = MakeInfra("infra-config1", std::move(ids));
    infra.status.ready = true;
    infra.status.replicas = replicas;
    return infra;
  }
  static void SetReadyReplicas(MachinePool* mp, int32_t ready) {
    mp->status.deprecated =
        MachinePoolDeprecatedStatus{MachinePoolV1Beta1Status{.ready_replicas = ready}};
  }

  // P10/P11 start from a fully reconciled pool, then switch the configRef.
  void RunFirstPass() {
    mp_.status.node_refs = {NodeRef("machinepool-test-node")};
    mp_.spec.provider_id_list = std::vector<std::string>{"test://id-1"};
    SetReadyReplicas(&mp_, 1);
    mp_.status.replicas = 1;
    Result res;
    ASSERT_TRUE(Run(&mp_, ReadyBootstrap("bootstrap-config1", "secret-data"),
                    ReadyInfra({"test://id-1"}, 1), &res)
                    .ok());
    EXPECT_EQ(res.requeue_after, 0);
    ReconcilePhase(&mp_);
    EXPECT_EQ(mp_.status.phase, "Running");
    EXPECT_EQ(*mp_.spec.template_.spec.bootstrap.data_secret_name, "secret-data");
  }
  void SwitchTo(BootstrapConfig config2, Result* res) {
    ASSERT_TRUE(h_.client.BootstrapConfigs().Create(&config2).ok());
    mp_.spec.template_.spec.bootstrap.config_ref = BootstrapRef("bootstrap-config2");
    ASSERT_TRUE(h_.RunNormal(cluster_, &mp_, res).ok());
    ReconcilePhase(&mp_);
  }

  Harness h_;
  Cluster cluster_ = MakeCluster(fake::kTestClusterName);
  MachinePool mp_ = fake::DefaultPhasesMachinePool();
  BootstrapConfig default_boot_ = MakeBootstrap("bootstrap-config1");
  InfraMachinePool default_infra_ =
      MakeInfra("infra-config1", std::vector<std::string>{"test://id-1"});
};

TEST_F(ReconcileMachinePoolPhases, ShouldSetOwnerReferenceAndClusterNameLabelOnExternalObjects) {
  Result res;
  ASSERT_TRUE(Run(&mp_, default_boot_, default_infra_, &res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  ReconcilePhase(&mp_);

  const BootstrapConfig& boot = h_.client.bootstrap_configs().At({"default", "bootstrap-config1"});
  EXPECT_EQ(boot.meta.owner_references.size(), 1u);
  EXPECT_EQ(boot.meta.labels.at("cluster.x-k8s.io/cluster-name"), "test-cluster");
  const InfraMachinePool& infra = h_.client.infra_machine_pools().At({"default", "infra-config1"});
  EXPECT_EQ(infra.meta.owner_references.size(), 1u);
  EXPECT_EQ(infra.meta.labels.at("cluster.x-k8s.io/cluster-name"), "test-cluster");
}

TEST_F(ReconcileMachinePoolPhases, ShouldSetPendingWithANewMachinePool) {
  Result res;
  ASSERT_TRUE(Run(&mp_, default_boot_, default_infra_, &res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  ReconcilePhase(&mp_);
  EXPECT_EQ(mp_.status.phase, "Pending");
}

TEST_F(ReconcileMachinePoolPhases, ShouldSetProvisioningWhenBootstrapIsReady) {
  Result res;
  ASSERT_TRUE(
      Run(&mp_, ReadyBootstrap("bootstrap-config1", "secret-data"), default_infra_, &res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  ReconcilePhase(&mp_);
  EXPECT_EQ(mp_.status.phase, "Provisioning");
}

TEST_F(ReconcileMachinePoolPhases, ShouldSetRunningWhenBootstrapAndInfraIsReady) {
  InfraMachinePool infra = ReadyInfra({"test://machinepool-test-node"}, 1);
  infra.spec.provider_spec["failureDomain"] = "us-east-2a";
  mp_.status.node_refs = {NodeRef("machinepool-test-node")};
  Result res;
  ASSERT_TRUE(Run(&mp_, ReadyBootstrap("bootstrap-config1", "secret-data"), infra, &res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  SetReadyReplicas(&mp_, 1);
  ReconcilePhase(&mp_);
  EXPECT_EQ(mp_.status.phase, "Running");
}

TEST_F(ReconcileMachinePoolPhases,
       ShouldSetRunningWhenBootstrapInfraAndReadyReplicasEqualsSpecReplicas) {
  // The upstream fixture also carries top-level `addresses`, which nothing reads.
  mp_.status.node_refs = {NodeRef("machinepool-test-node")};
  Result res;
  ASSERT_TRUE(Run(&mp_, ReadyBootstrap("bootstrap-config1", "secret-data"),
                  ReadyInfra({"test://id-1"}, 1), &res)
                  .ok());
  EXPECT_EQ(res.requeue_after, 0);
  SetReadyReplicas(&mp_, 1);
  ReconcilePhase(&mp_);
  EXPECT_EQ(mp_.status.phase, "Running");
}

TEST_F(ReconcileMachinePoolPhases, ShouldSetProvisionedWhenThereIsANodeRefButInfraIsNotReady) {
  mp_.status.node_refs = {NodeRef("machinepool-test-node")};
  Result res;
  ASSERT_TRUE(
      Run(&mp_, ReadyBootstrap("bootstrap-config1", "secret-data"), default_infra_, &res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  ReconcilePhase(&mp_);
  EXPECT_EQ(mp_.status.phase, "Provisioned");
}

TEST_F(ReconcileMachinePoolPhases, ShouldSetScalingUpWhenInfraIsScalingUp) {
  mp_.status.node_refs = {NodeRef("machinepool-test-node")};
  Result res;
  ASSERT_TRUE(Run(&mp_, ReadyBootstrap("bootstrap-config1", "secret-data"),
                  ReadyInfra({"test://id-1"}, 1), &res)
                  .ok());
  EXPECT_EQ(res.requeue_after, 0);
  SetReadyReplicas(&mp_, 1);
  mp_.spec.replicas = 5;
  ReconcilePhase(&mp_);
  EXPECT_EQ(mp_.status.phase, "ScalingUp");
}

TEST_F(ReconcileMachinePoolPhases, ShouldSetScalingDownWhenInfraIsScalingDown) {
  mp_.spec.replicas = 4;
  mp_.status.node_refs = {NodeRef("machinepool-test-node-0"), NodeRef("machinepool-test-node-1"),
                          NodeRef("machinepool-test-node-2"), NodeRef("machinepool-test-node-3")};
  Result res;
  ASSERT_TRUE(Run(&mp_, ReadyBootstrap("bootstrap-config1", "secret-data"),
                  ReadyInfra({"test://id-1"}, 4), &res)
                  .ok());
  EXPECT_EQ(res.requeue_after, 0);
  SetReadyReplicas(&mp_, 4);
  mp_.spec.replicas = 1;
  ReconcilePhase(&mp_);
  EXPECT_EQ(mp_.status.phase, "ScalingDown");
}

TEST_F(ReconcileMachinePoolPhases, ShouldSetDeletingWhenMachinePoolIsBeingDeleted) {
  mp_.status.node_refs = {NodeRef("machinepool-test-node")};
  mp_.meta.deletion_timestamp = h_.clock.Now();
  mp_.meta.finalizers = {"machinepool.cluster.x-k8s.io"};
  Result res;
  ASSERT_TRUE(Run(&mp_, ReadyBootstrap("bootstrap-config1", "secret-data"),
                  ReadyInfra({"test://id-1"}, std::nullopt), &res)
                  .ok());
  EXPECT_EQ(res.requeue_after, 0);
  ReconcilePhase(&mp_);
  EXPECT_EQ(mp_.status.phase, "Deleting");
}

TEST_F(ReconcileMachinePoolPhases,
       ShouldKeepRunningWhenMachinePoolBootstrapConfigIsChangedToAnotherReadyOne) {
  RunFirstPass();
  Result res;
  SwitchTo(ReadyBootstrap("bootstrap-config2", "secret-data-new"), &res);
  EXPECT_EQ(res.requeue_after, 0);
  EXPECT_EQ(*mp_.spec.template_.spec.bootstrap.data_secret_name, "secret-data-new");
  EXPECT_TRUE(mp_.status.initialization.bootstrap_data_secret_created.value_or(false));
  EXPECT_EQ(mp_.status.phase, "Running");
}

TEST_F(ReconcileMachinePoolPhases,
       ShouldKeepRunningWhenMachinePoolBootstrapConfigIsChangedToANonReadyOne) {
  RunFirstPass();
  Result res;
  SwitchTo(ReadyBootstrap("bootstrap-config2", "secret-data-new", /*created=*/false), &res);
  EXPECT_EQ(res.requeue_after, 0);
  EXPECT_EQ(*mp_.spec.template_.spec.bootstrap.data_secret_name, "secret-data");
  EXPECT_FALSE(mp_.status.initialization.bootstrap_data_secret_created.value_or(false));
  EXPECT_EQ(mp_.status.phase, "Running");
}

}  // namespace
}  // namespace mpsim
