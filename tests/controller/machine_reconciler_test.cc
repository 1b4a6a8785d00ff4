// The Machine controller's live path for a MachinePool Machine: providerID
// from the ready InfraMachine, nodeRef and nodeInfo from the Node of that
// providerID, and the Ready and Available conditions the pool counts.
#include "controller/machine_reconciler.h"

#include <gtest/gtest.h>

#include "controller/capi_names.h"
#include "tests/testing/fake_client.h"

namespace mpsim {
namespace {

class MachineReconcilerLive : public ::testing::Test {
 protected:
  MachineReconcilerLive() : client_(&clock_), reconciler_(&client_, &clock_) {}

  void SetUp() override {
    Cluster cluster;
    cluster.meta = {.name = "c", .ns = "default"};
    SetCondition(&cluster.status.conditions,
                 {.type = capi::kControlPlaneInitializedCondition, .status = "True"}, 0);
    client_.clusters().Add(cluster);
    Machine m;
    m.meta = {.name = "mp-0-00000", .ns = "default"};
    m.spec.cluster_name = "c";
    m.spec.infrastructure_ref = {.kind = "TestMachine", .ns = "default", .name = "mp-0-00000"};
    client_.machines().Add(m);
    InfraMachine im;
    im.meta = {.name = "mp-0-00000", .ns = "default"};
    im.kind = "TestMachine";
    client_.infra_machines().Add(im);
  }

  Status Pass(Result* r) { return reconciler_.Reconcile({kMachine}, r); }
  const Machine& TheMachine() { return client_.machines().At(kMachine); }
  const Condition* Cond(const char* type) {
    return FindCondition(TheMachine().status.conditions, type);
  }
  void ProvisionInfra() {
    InfraMachine im = client_.infra_machines().At(kMachine);
    im.status.ready = true;
    im.spec.provider_id = SharedString("test:///i-1");
    client_.infra_machines().Add(im);
  }
  void AddNode(const char* ready) {
    Node n;
    n.meta.name = "node-1";
    n.spec.provider_id = "test:///i-1";
    n.status.node_info.kubelet_version = "v1.31.0";
    n.status.conditions.push_back({.type = "Ready", .status = ready, .last_transition_time = 0});
    for (const char* p : {"MemoryPressure", "DiskPressure", "PIDPressure"}) {
      n.status.conditions.push_back({.type = p, .status = "False"});
    }
    client_.nodes().Add(n);
  }

  const ObjectKey kMachine{"default", "mp-0-00000"};
  fake::FakeClock clock_;
  fake::FakeClient client_;
  MachineReconciler reconciler_;
};

TEST_F(MachineReconcilerLive, NotReadyUntilTheInfraMachineIsProvisioned) {
  Result r;
  ASSERT_TRUE(Pass(&r).ok());  // the finalizer
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_FALSE(TheMachine().spec.provider_id.has_value());
  ASSERT_NE(Cond("InfrastructureReady"), nullptr);
  EXPECT_EQ(Cond("InfrastructureReady")->status, "False");
  EXPECT_EQ(Cond("InfrastructureReady")->message,
            "TestMachine status.initialization.provisioned is false");
  EXPECT_EQ(Cond("Ready")->status, "False");
  EXPECT_EQ(Cond("Available")->reason, "NotReady");
}

TEST_F(MachineReconcilerLive, ReadyAndAvailableOnceItsNodeIsReady) {
  Result r;
  ASSERT_TRUE(Pass(&r).ok());
  ProvisionInfra();
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_EQ(TheMachine().spec.provider_id, SharedString("test:///i-1"));
  EXPECT_EQ(TheMachine().status.infrastructure_provisioned, true);
  EXPECT_FALSE(TheMachine().status.node_ref.has_value());
  EXPECT_EQ(Cond("NodeHealthy")->message,
            "Waiting for a Node with spec.providerID test:///i-1 to exist");
  AddNode("False");
  ASSERT_TRUE(Pass(&r).ok());
  ASSERT_TRUE(TheMachine().status.node_ref.has_value());
  EXPECT_EQ(TheMachine().status.node_ref->name, "node-1");
  EXPECT_EQ(TheMachine().status.node_info->kubelet_version, "v1.31.0");
  EXPECT_EQ(Cond("NodeReady")->reason, "NodeNotReady");
  EXPECT_EQ(Cond("Ready")->status, "False");
  AddNode("True");
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_EQ(Cond("NodeHealthy")->status, "True");
  EXPECT_EQ(Cond("Ready")->status, "True");
  EXPECT_EQ(Cond("Available")->status, "True");  // minReadySeconds 0
  EXPECT_TRUE(client_.watched_clusters.count({"default", "c"}));
}

// A Machine whose Node went away while it lives is an error (backoff), and
// its NodeHealthy says so.
TEST_F(MachineReconcilerLive, ANodeGoneUnderALiveMachineIsAnError) {
  Result r;
  ASSERT_TRUE(Pass(&r).ok());
  ProvisionInfra();
  AddNode("True");
  ASSERT_TRUE(Pass(&r).ok());
  client_.nodes().Remove({"", "node-1"});
  EXPECT_FALSE(Pass(&r).ok());
  EXPECT_EQ(Cond("NodeHealthy")->reason, "NodeDeleted");
  EXPECT_EQ(Cond("Ready")->status, "False");
}

}  // namespace
}  // namespace mpsim
