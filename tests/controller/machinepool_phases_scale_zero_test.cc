// TestReconcileMachinePoolScaleToFromZero and
// TestMachinePoolReconciler_getNodeRefMap (machinepool_controller_phases_test.go),
// docs/reference/capi-core.md §6.6 and §6.7. Upstream "wl=env" Nodes live in envtest and so
// have server-assigned UIDs; here they get a fixed UID.
#include <gtest/gtest.h>

#include "controller/machinepool_internal.h"
#include "tests/testing/machinepool_fixtures.h"

namespace mpsim {
namespace {

using fake::BootstrapRef;
using fake::Harness;
using fake::MakeCluster;
using fake::MakeInfra;
using fake::MakeNode;
using fake::NodeRef;
using fake::ReadyBootstrap;

constexpr const char* kScaleZeroNs = "machinepool-scale-zero";
constexpr const char* kNodePid = "test://machinepool-test-node";

class ReconcileMachinePoolScaleToFromZero : public ::testing::Test {
 protected:
  void SetUp() override {
    mp_.meta = {.name = "machinepool-test", .ns = kScaleZeroNs};
    mp_.spec.cluster_name = cluster_.meta.name;
    mp_.spec.template_.spec.bootstrap.config_ref = BootstrapRef("bootstrap-config1");
    mp_.spec.template_.spec.infrastructure_ref = fake::InfraRef("infra-config1");
    infra_.status.ready = true;
  }
  void AddNode() {
    h_.client.nodes().Add(MakeNode("machinepool-test-node", kNodePid, "True", "node-uid-1"));
  }
  Status Run(Result* res) {
    BootstrapConfig boot = ReadyBootstrap("bootstrap-config1", "secret-data");
    boot.meta.ns = kScaleZeroNs;
    h_.client.clusters().Add(cluster_);
    h_.client.machine_pools().Add(mp_);
    h_.client.bootstrap_configs().Add(boot);
    h_.client.infra_machine_pools().Add(infra_);
    Status s = h_.RunNormal(cluster_, &mp_, res);
    ReconcilePhase(&mp_);
    return s;
  }
  const MachinePoolV1Beta1Status& V1() const { return *mp_.status.deprecated->v1beta1; }

  Harness h_;
  Cluster cluster_ = MakeCluster("machinepool-scale-zero-1", kScaleZeroNs);
  MachinePool mp_;
  InfraMachinePool infra_ = MakeInfra("infra-config1", std::nullopt, kScaleZeroNs);
};

TEST_F(ReconcileMachinePoolScaleToFromZero, ShouldSetScalingDownWhenScalingToZero) {
  AddNode();
  mp_.spec.replicas = 0;
  mp_.status.node_refs = {NodeRef("machinepool-test-node")};
  infra_.spec.provider_id_list = std::vector<std::string>{kNodePid};
  infra_.status.replicas = 1;
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  EXPECT_EQ(mp_.status.phase, "ScalingDown");
  EXPECT_TRUE(h_.client.nodes().Has({"", "machinepool-test-node"}));
  // Derived (d).
  EXPECT_EQ(V1().ready_replicas, 1);
  EXPECT_EQ(V1().available_replicas, 1);
  EXPECT_EQ(V1().unavailable_replicas, 0);
  EXPECT_EQ(mp_.status.node_refs,
            (std::vector<NodeReference>{NodeRef("machinepool-test-node", "node-uid-1")}));
  EXPECT_EQ(FindCondition(V1().conditions, "ReplicasReady")->status, "True");
}

TEST_F(ReconcileMachinePoolScaleToFromZero, ShouldDeleteRetiredNodesWhenScaledToZero) {
  AddNode();
  mp_.spec.replicas = 0;
  mp_.status.node_refs = {NodeRef("machinepool-test-node")};
  infra_.status.replicas = 0;
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  EXPECT_EQ(mp_.status.phase, "Running");
  Node gone;
  EXPECT_TRUE(h_.client.nodes().Get({"", "machinepool-test-node"}, &gone).IsNotFound());
  // Derived (d).
  EXPECT_TRUE(mp_.status.node_refs.empty());
  EXPECT_EQ(V1().ready_replicas, 0);
  EXPECT_EQ(V1().available_replicas, 0);
  EXPECT_EQ(V1().unavailable_replicas, 0);
}

TEST_F(ReconcileMachinePoolScaleToFromZero, ShouldSetRunningWhenScaledToZero) {
  mp_.spec.replicas = 0;
  infra_.status.replicas = 0;
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  EXPECT_EQ(mp_.status.phase, "Running");
}

TEST_F(ReconcileMachinePoolScaleToFromZero, ShouldSetScalingUpWhenScalingFromZeroToOne) {
  mp_.spec.replicas = 1;
  infra_.status.replicas = 0;
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  EXPECT_EQ(mp_.status.phase, "ScalingUp");
}

TEST_F(ReconcileMachinePoolScaleToFromZero, ShouldSetRunningWhenScaledFromZeroToOne) {
  AddNode();
  mp_.spec.replicas = 1;
  infra_.spec.provider_id_list = std::vector<std::string>{kNodePid};
  infra_.status.replicas = 1;
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(res.requeue_after, 0);
  EXPECT_EQ(mp_.status.phase, "Running");
  EXPECT_TRUE(h_.client.nodes().Has({"", "machinepool-test-node"}));
  // Derived (d).
  EXPECT_EQ(mp_.status.node_refs,
            (std::vector<NodeReference>{NodeRef("machinepool-test-node", "node-uid-1")}));
  EXPECT_EQ(V1().ready_replicas, 1);
  EXPECT_EQ(V1().available_replicas, 1);
  EXPECT_EQ(V1().unavailable_replicas, 0);
}

// ---- TestMachinePoolReconciler_getNodeRefMap ----

class MachinePoolReconcilerGetNodeRefMap : public ::testing::Test {
 protected:
  NodeRefMap Run() { return GetNodeRefMap(&h_.client.nodes(), ProviderIDMatch::kExact); }
  Harness h_;
};

TEST_F(MachinePoolReconcilerGetNodeRefMap, AllValidProviderIds) {
  h_.client.nodes().Add(MakeNode("node-1", "aws://us-east-1/id-node-1"));
  h_.client.nodes().Add(MakeNode("gce-node-2", "gce://us-central1/gce-id-node-2"));
  h_.client.nodes().Add(MakeNode("azure-node-4", "azure://westus2/id-node-4"));
  NodeRefMap m = Run();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.at("aws://us-east-1/id-node-1")->meta.name, "node-1");
  EXPECT_EQ(m.at("gce://us-central1/gce-id-node-2")->meta.name, "gce-node-2");
  EXPECT_EQ(m.at("azure://westus2/id-node-4")->meta.name, "azure-node-4");
  EXPECT_EQ(m.at("azure://westus2/id-node-4")->spec.provider_id, "azure://westus2/id-node-4");
}

TEST_F(MachinePoolReconcilerGetNodeRefMap, MissingProviderId) {
  h_.client.nodes().Add(MakeNode("node-1", "aws://us-east-1/id-node-1"));
  h_.client.nodes().Add(MakeNode("gce-node-2", "gce://us-central1/gce-id-node-2"));
  h_.client.nodes().Add(MakeNode("azure-node-4", ""));
  NodeRefMap m = Run();
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m.at("aws://us-east-1/id-node-1")->meta.name, "node-1");
  EXPECT_EQ(m.at("gce://us-central1/gce-id-node-2")->meta.name, "gce-node-2");
}

TEST_F(MachinePoolReconcilerGetNodeRefMap, EmptyNodeList) { EXPECT_TRUE(Run().empty()); }

// Not upstream: two Nodes with one providerID, the later in name order wins.
TEST_F(MachinePoolReconcilerGetNodeRefMap, DuplicateProviderIDLaterNodeInListOrderWins) {
  h_.client.nodes().Add(MakeNode("node-b", "aws:///zone/i-1"));
  h_.client.nodes().Add(MakeNode("node-a", "aws:///zone/i-1"));
  NodeRefMap m = Run();
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m.at("aws:///zone/i-1")->meta.name, "node-b");
}

}  // namespace
}  // namespace mpsim
