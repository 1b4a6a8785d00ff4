// The v1beta2 conditions of the Machine controller's updateStatus, with the
// cases and expected values of machine_controller_status_test.go.
#include "controller/machine_status.h"

#include <gtest/gtest.h>

#include "controller/capi_names.h"

namespace mpsim {
namespace {

Node MachineStatusNode(std::vector<Condition> conditions) {
  Node n;
  n.meta.name = "node-1";
  n.status.conditions.assign(conditions.begin(), conditions.end());
  return n;
}

const Condition& MachineStatusCondition(const Machine& m, const std::string& type) {
  static const Condition kMissing{.type = "<missing>"};
  const Condition* c = FindCondition(m.status.conditions, type);
  return c == nullptr ? kMissing : *c;
}

// ---- TestSummarizeNodeV1Beta2Conditions ----

TEST(SummarizeNodeConditions, NodeIsHealthy) {
  const NodeHealth h =
      SummarizeNodeConditions(MachineStatusNode({{.type = "Ready", .status = "True"},
                                                 {.type = "MemoryPressure", .status = "False"},
                                                 {.type = "DiskPressure", .status = "False"},
                                                 {.type = "PIDPressure", .status = "False"}}));
  EXPECT_EQ(h.status, "True");
  EXPECT_EQ(h.reason, "NodeHealthy");
  EXPECT_EQ(h.message, "");
}

TEST(SummarizeNodeConditions, AllConditionsAreUnknown) {
  const std::string m = "Node is not reporting status";
  const NodeHealth h = SummarizeNodeConditions(
      MachineStatusNode({{.type = "Ready", .status = "Unknown", .message = m},
                         {.type = "MemoryPressure", .status = "Unknown", .message = m},
                         {.type = "DiskPressure", .status = "Unknown", .message = m},
                         {.type = "PIDPressure", .status = "Unknown", .message = m}}));
  EXPECT_EQ(h.status, "Unknown");
  EXPECT_EQ(h.reason, "NodeHealthyUnknown");
  EXPECT_EQ(h.message, "* Node.AllConditions: Node is not reporting status");
}

TEST(SummarizeNodeConditions, MultipleSemanticallyFailedConditions) {
  const NodeHealth h = SummarizeNodeConditions(MachineStatusNode(
      {{.type = "Ready", .status = "Unknown", .message = "Node is not reporting status"},
       {.type = "MemoryPressure",
        .status = "True",
        .message = "kubelet has NOT sufficient memory available"},
       {.type = "DiskPressure", .status = "True", .message = "kubelet has disk pressure"},
       {.type = "PIDPressure",
        .status = "True",
        .message = "kubelet has NOT sufficient PID available"}}));
  EXPECT_EQ(h.status, "False");
  EXPECT_EQ(h.reason, "NodeNotHealthy");
  EXPECT_EQ(h.message,
            "* Node.Ready: Node is not reporting status\n"
            "* Node.MemoryPressure: kubelet has NOT sufficient memory available\n"
            "* Node.DiskPressure: kubelet has disk pressure\n"
            "* Node.PIDPressure: kubelet has NOT sufficient PID available");
}

TEST(SummarizeNodeConditions, OneSemanticallyFailedConditionWhenTheRestIsHealthy) {
  const NodeHealth h =
      SummarizeNodeConditions(MachineStatusNode({{.type = "Ready",
                                                  .status = "False",
                                                  .reason = "SomeReason",
                                                  .message = "kubelet is NOT ready"},
                                                 {.type = "MemoryPressure", .status = "False"},
                                                 {.type = "DiskPressure", .status = "False"},
                                                 {.type = "PIDPressure", .status = "False"}}));
  EXPECT_EQ(h.status, "False");
  EXPECT_EQ(h.reason, "NodeNotHealthy");
  EXPECT_EQ(h.message, "* Node.Ready: kubelet is NOT ready");
}

TEST(SummarizeNodeConditions, OneConditionMissing) {
  const NodeHealth h =
      SummarizeNodeConditions(MachineStatusNode({{.type = "MemoryPressure", .status = "False"},
                                                 {.type = "DiskPressure", .status = "False"},
                                                 {.type = "PIDPressure", .status = "False"}}));
  EXPECT_EQ(h.status, "Unknown");
  EXPECT_EQ(h.reason, "NodeHealthyUnknown");
  EXPECT_EQ(h.message, "* Node.Ready: Condition not yet reported");
}

// ---- TestSetNodeHealthyAndReadyConditions ----

class SetNodeHealthyAndReady : public ::testing::Test {
 protected:
  SetNodeHealthyAndReady() {
    s_.machine = &m_;
    m_.meta.name = "machine-test";
    m_.spec.infrastructure_ref.kind = "GenericInfrastructureMachine";
    SetCondition(&s_.cluster.status.conditions,
                 {.type = capi::kControlPlaneInitializedCondition, .status = "True"}, 0);
  }
  Machine m_;
  MachineScope s_;
};

TEST_F(SetNodeHealthyAndReady, ClusterControlPlaneIsNotInitialized) {
  s_.cluster.status.conditions.clear();
  SetNodeHealthyAndReadyConditions(s_, 0);
  for (const char* type : {"NodeReady", "NodeHealthy"}) {
    EXPECT_EQ(MachineStatusCondition(m_, type).status, "Unknown");
    EXPECT_EQ(MachineStatusCondition(m_, type).reason, "InspectionFailed");
    EXPECT_EQ(MachineStatusCondition(m_, type).message,
              "Waiting for Cluster control plane to be initialized");
  }
}

TEST_F(SetNodeHealthyAndReady, GetNodeReadyAndNodeHealthyFromNode) {
  s_.node = MachineStatusNode({{.type = "Ready", .status = "True", .last_transition_time = 7},
                               {.type = "MemoryPressure", .status = "False"},
                               {.type = "DiskPressure", .status = "False"},
                               {.type = "PIDPressure", .status = "False"}});
  SetNodeHealthyAndReadyConditions(s_, 100);
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").status, "True");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").reason, "NodeReady");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").last_transition_time, 7);
  EXPECT_EQ(MachineStatusCondition(m_, "NodeHealthy").status, "True");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeHealthy").reason, "NodeHealthy");
}

TEST_F(SetNodeHealthyAndReady, NodeReadyMissingFromTheNode) {
  s_.node = MachineStatusNode({{.type = "MemoryPressure", .status = "False"}});
  SetNodeHealthyAndReadyConditions(s_, 0);
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").status, "Unknown");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").reason, "NodeReadyUnknown");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").message,
            "* Node.Ready: Condition not yet reported");
}

TEST_F(SetNodeHealthyAndReady, NodeThatWasThereIsGoneWhileTheMachineExists) {
  m_.status.node_ref = NodeReference{.name = "test-node-1"};
  SetNodeHealthyAndReadyConditions(s_, 0);
  EXPECT_EQ(MachineStatusCondition(m_, "NodeHealthy").status, "False");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeHealthy").reason, "NodeDeleted");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeHealthy").message,
            "Node test-node-1 has been deleted while the Machine still exists");
}

TEST_F(SetNodeHealthyAndReady, NodeGoneWhileTheMachineIsDeleting) {
  m_.meta.deletion_timestamp = 1;
  m_.status.node_ref = NodeReference{.name = "test-node-1"};
  SetNodeHealthyAndReadyConditions(s_, 0);
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").reason, "NodeDeleted");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").message, "Node test-node-1 has been deleted");
  m_.status.node_ref.reset();
  SetNodeHealthyAndReadyConditions(s_, 0);
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").status, "Unknown");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").reason, "NodeDoesNotExist");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").message, "Node does not exist");
}

TEST_F(SetNodeHealthyAndReady, WaitingForTheProviderIDOrItsNode) {
  SetNodeHealthyAndReadyConditions(s_, 0);
  EXPECT_EQ(MachineStatusCondition(m_, "NodeHealthy").message,
            "Waiting for GenericInfrastructureMachine to report spec.providerID");
  m_.spec.provider_id = SharedString("foo://test-node-1");
  SetNodeHealthyAndReadyConditions(s_, 0);
  EXPECT_EQ(MachineStatusCondition(m_, "NodeHealthy").status, "Unknown");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeHealthy").reason, "InspectionFailed");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeHealthy").message,
            "Waiting for a Node with spec.providerID foo://test-node-1 to exist");
}

TEST_F(SetNodeHealthyAndReady, ConnectionDownBeforeAnyReportKeepsNothingElse) {
  s_.node_get_error = Status::Unavailable("not connected");
  SetNodeHealthyAndReadyConditions(s_, 0);
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").reason, "ConnectionDown");
  EXPECT_EQ(MachineStatusCondition(m_, "NodeReady").message,
            "Remote connection not established yet");
}

// ---- TestSetReadyCondition, TestDeletingCondition, TestAvailableCondition ----

void SetAllGates(Machine* m, const char* infra_status) {
  SetBootstrapReadyCondition(m, 0);
  SetCondition(&m->status.conditions,
               {.type = "InfrastructureReady", .status = infra_status, .reason = "Foo"}, 0);
  SetCondition(&m->status.conditions, {.type = "NodeHealthy", .status = "True", .reason = "Foo"},
               0);
  SetDeletingCondition(m, "", "", 0);
  SetUpdatingCondition(m, 0);
}

TEST(SetReadyCondition, AllConditionsTrue) {
  Machine m;
  SetAllGates(&m, "True");
  SetReadyCondition(&m, 5);
  EXPECT_EQ(MachineStatusCondition(m, "Ready").status, "True");
  EXPECT_EQ(MachineStatusCondition(m, "Ready").reason, "Ready");
  EXPECT_EQ(MachineStatusCondition(m, "BootstrapConfigReady").reason, "DataSecretProvided");
  EXPECT_EQ(MachineStatusCondition(m, "Deleting").reason, "NotDeleting");
  EXPECT_EQ(MachineStatusCondition(m, "Updating").reason, "NotUpdating");
}

TEST(SetReadyCondition, OneConditionFalse) {
  Machine m;
  SetAllGates(&m, "False");
  SetReadyCondition(&m, 5);
  EXPECT_EQ(MachineStatusCondition(m, "Ready").status, "False");
  EXPECT_EQ(MachineStatusCondition(m, "Ready").reason, "NotReady");
}

TEST(SetReadyCondition, AMissingConditionIsUnknown) {
  Machine m;
  SetBootstrapReadyCondition(&m, 0);
  SetReadyCondition(&m, 5);
  EXPECT_EQ(MachineStatusCondition(m, "Ready").status, "Unknown");
  EXPECT_EQ(MachineStatusCondition(m, "Ready").reason, "ReadyUnknown");
}

TEST(SetReadyCondition, ADeletingMachineIsNotReady) {
  Machine m;
  SetAllGates(&m, "True");
  m.meta.deletion_timestamp = 1;
  SetDeletingCondition(&m, "DrainingNode", "", 0);
  EXPECT_EQ(MachineStatusCondition(m, "Deleting").status, "True");
  EXPECT_EQ(MachineStatusCondition(m, "Deleting").reason, "DrainingNode");
  SetReadyCondition(&m, 5);
  EXPECT_EQ(MachineStatusCondition(m, "Ready").status, "False");
}

TEST(SetAvailableCondition, NotReady) {
  Machine m;
  SetCondition(&m.status.conditions, {.type = "Ready", .status = "False", .reason = "SomeReason"},
               0);
  EXPECT_EQ(SetAvailableCondition(&m, 100 * kSecond), 0);
  EXPECT_EQ(MachineStatusCondition(m, "Available").status, "False");
  EXPECT_EQ(MachineStatusCondition(m, "Available").reason, "NotReady");
}

TEST(SetAvailableCondition, ReadyButStillWaitingForMinReadySeconds) {
  Machine m;
  SetCondition(&m.status.conditions, {.type = "Ready", .status = "True", .reason = "Ready"},
               110 * kSecond);
  EXPECT_EQ(SetAvailableCondition(&m, 100 * kSecond), 10 * kSecond);
  EXPECT_EQ(MachineStatusCondition(m, "Available").status, "False");
  EXPECT_EQ(MachineStatusCondition(m, "Available").reason, "WaitingForMinReadySeconds");
}

TEST(SetAvailableCondition, ReadyAndAvailable) {
  Machine m;
  SetCondition(&m.status.conditions, {.type = "Ready", .status = "True", .reason = "Ready"},
               90 * kSecond);
  EXPECT_EQ(SetAvailableCondition(&m, 100 * kSecond), 0);
  EXPECT_EQ(MachineStatusCondition(m, "Available").status, "True");
  EXPECT_EQ(MachineStatusCondition(m, "Available").reason, "Available");
}

}  // namespace
}  // namespace mpsim
