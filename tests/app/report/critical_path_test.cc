// The critical path on small hand-built timelines whose chains were designed
// by hand: each step's span and kind, for the test provider's, ASG's, MIG's
// and VMSS's instance state names, requeue waits and unconverged pools.
#include "app/report/critical_path.h"

#include <gtest/gtest.h>

#include <string>

#include "app/report/instance_states.h"
#include "models/registry.h"

namespace mpsim {
namespace {

constexpr Time S = kSecond;

// A recorder holding rows of pool "mp-0", added in the order given (time order).
class Timeline {
 public:
  Timeline& Row(double t, const char* kind, const char* object, const char* field, const char* from,
                const char* to) {
    rec_.Change(static_cast<Time>(t * S), kind, object, field, from, to, "mp-0");
    return *this;
  }
  Timeline& Fault(double t, const char* object, const char* what) {
    rec_.Fault(static_cast<Time>(t * S), "mp-0", object, what);
    return *this;
  }
  Timeline& Reconcile(const char* controller, double start, const char* outcome) {
    rec_.Reconcile(
        {controller, "mp-0", static_cast<Time>(start * S), static_cast<Time>(start * S), outcome});
    return *this;
  }
  // A reconcile that only the controller's periodic resync (every `period` s) woke.
  Timeline& ResyncReconcile(const char* controller, double start, double period) {
    const Time at = static_cast<Time>(start * S);
    rec_.Reconcile({controller, "mp-0", at, at, "ok", static_cast<Duration>(period * S)});
    return *this;
  }
  CriticalPath Path(double end, bool converged, const std::string& reason = "") const {
    return ComputeCriticalPath(rec_,
                               {"mp-0", 0, static_cast<Time>(end * S), converged, false, reason});
  }

 private:
  Recorder rec_;
};

struct Expected {
  double from, to;
  const char* kind;
  const char* object;
};

void ExpectSteps(const CriticalPath& p, const std::vector<Expected>& want) {
  ASSERT_EQ(p.steps.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i) + ": " + p.steps[i].what);
    EXPECT_EQ(p.steps[i].from, static_cast<Time>(want[i].from * S));
    EXPECT_EQ(p.steps[i].to, static_cast<Time>(want[i].to * S));
    EXPECT_EQ(p.steps[i].kind, want[i].kind);
    EXPECT_EQ(p.steps[i].object, want[i].object);
  }
}

// One test-provider instance. The nodeRef waits for the Node's providerID
// (72 s), not for providerIDList (35 s), and the MachinePool controller only
// saw it at its 30 s requeue (60 s + 30 s).
TEST(CriticalPath, TestProviderChainWithRequeue) {
  Timeline t;
  t.Row(0, "MachinePool", "mp-0", "spec.replicas", "0", "1")
      .Row(2, "Instance", "i-1", "state", "", "Launching")
      .Row(32, "Instance", "i-1", "state", "Launching", "Running")
      .Row(35, "InfraMachinePool", "mp-0", "providerIDList", "", "test:///i-1")
      .Row(72, "Node", "i-1", "registered", "false", "true")
      .Row(72, "Node", "i-1", "providerID", "", "test:///i-1")
      .Row(77, "Node", "i-1", "Ready", "False", "True")
      .Row(90, "MachinePool", "mp-0", "nodeRef", "", "i-1");
  t.Reconcile("machinepool", 60, "requeueAfter 30s")
      .Reconcile("machinepool", 90, "ok")
      .Reconcile("machinepool", 95, "ok");
  CriticalPath p = t.Path(95, true);
  ExpectSteps(p, {{0, 2, "create", "i-1"},
                  {2, 32, "launch", "i-1"},
                  {32, 72, "register", "i-1"},
                  {72, 90, "requeue", "i-1"},
                  {90, 95, "status", ""}});
  EXPECT_NE(p.steps[3].what.find("30s requeue of the MachinePool controller"), std::string::npos)
      << p.steps[3].what;
  EXPECT_NE(p.steps[3].what.find("after Node i-1 got its providerID"), std::string::npos)
      << p.steps[3].what;
  EXPECT_NE(p.steps[1].what.find("Launching -> Running"), std::string::npos) << p.steps[1].what;
}

// ASG: three capacity errors before the launch; the Node is Ready last, so
// convergence waited for Ready, not for the nodeRef.
TEST(CriticalPath, AsgStatesAndCapacityErrors) {
  Timeline t;
  t.Fault(1, "us-east-1b", "InsufficientInstanceCapacity")
      .Fault(11, "us-east-1b", "InsufficientInstanceCapacity")
      .Fault(21, "us-east-1b", "InsufficientInstanceCapacity")
      .Row(31, "Instance", "i-0001", "state", "", "Pending")
      .Row(61, "Instance", "i-0001", "state", "Pending", "InService")
      .Row(61, "InfraMachinePool", "mp-0", "providerIDList", "", "aws:///us-east-1c/i-0001")
      .Row(100, "Node", "i-0001", "registered", "false", "true")
      .Row(100, "Node", "i-0001", "providerID", "", "aws:///us-east-1c/i-0001")
      .Row(100, "MachinePool", "mp-0", "nodeRef", "", "i-0001")
      .Row(120, "Node", "i-0001", "Ready", "False", "True");
  CriticalPath p = t.Path(121, true);
  ExpectSteps(p, {{0, 31, "create", "i-0001"},
                  {31, 61, "launch", "i-0001"},
                  {61, 100, "register", "i-0001"},
                  {100, 120, "node-ready", "i-0001"},
                  {120, 121, "status", ""}});
  EXPECT_NE(p.steps[0].what.find("InsufficientInstanceCapacity 3 times on us-east-1b 3"),
            std::string::npos)
      << p.steps[0].what;
  EXPECT_NE(p.steps[1].what.find("Pending -> InService"), std::string::npos) << p.steps[1].what;
}

// CAPA#4618: the instance was listed after the AWSMachinePool controller's
// only requeue, and only its 10-minute resync lists it. The step says so in
// plain words, with the upstream issues the provider's registration names.
TEST(CriticalPath, AsgInstanceListedOnlyAtTheResync) {
  Timeline t;
  t.Row(0, "MachinePool", "mp-0", "spec.replicas", "0", "1")
      .Row(22, "Instance", "i-0001", "state", "", "Pending")
      .Row(32, "Instance", "i-0001", "state", "Pending", "InService")
      .Row(600, "InfraMachinePool", "mp-0", "providerIDList", "", "aws:///us-east-1a/i-0001")
      .Row(601, "MachinePool", "mp-0", "nodeRef", "", "i-0001");
  t.Reconcile("awsmachinepool", 2, "requeueAfter 15s")
      .Reconcile("awsmachinepool", 17, "ok")
      .ResyncReconcile("awsmachinepool", 600, 600)
      .Reconcile("machinepool", 601, "ok");
  CriticalPath p = t.Path(601, true);
  ASSERT_GE(p.steps.size(), 3u);
  const PathStep& wait = p.steps[2];
  EXPECT_EQ(wait.kind, "resync");
  EXPECT_EQ(wait.from, 32 * S);
  EXPECT_EQ(wait.to, 600 * S);
  EXPECT_NE(wait.what.find("no event or requeue woke the AWSMachinePool controller until its "
                           "10 m resync (CAPA#4618, cluster-api#4062)"),
            std::string::npos)
      << wait.what;
}

// A reconcile woken by the resync after another one that ran since the input
// changed is no resync wait: something else woke the controller first.
TEST(CriticalPath, ResyncAfterAnotherReconcileIsNotTheWait) {
  Timeline t;
  t.Row(0, "MachinePool", "mp-0", "spec.replicas", "0", "1")
      .Row(22, "Instance", "i-0001", "state", "", "Pending")
      .Row(32, "Instance", "i-0001", "state", "Pending", "InService")
      .Row(600, "InfraMachinePool", "mp-0", "providerIDList", "", "aws:///us-east-1a/i-0001");
  t.Reconcile("awsmachinepool", 100, "ok").ResyncReconcile("awsmachinepool", 600, 600);
  CriticalPath p = t.Path(600, false, "waiting");
  ASSERT_GE(p.steps.size(), 3u);
  EXPECT_NE(p.steps[2].kind, "resync") << p.steps[2].what;
  EXPECT_EQ(p.steps[2].what.find("resync"), std::string::npos) << p.steps[2].what;
}

// MIG: the request is accepted at once, the zone is out of resources three
// times 10 s apart, and the pool has not converged at the end of the run.
TEST(CriticalPath, MigStockoutsThenNotConverged) {
  Timeline t;
  t.Row(1, "Instance", "mp-0-1", "currentAction", "", "CREATING")
      .Fault(1, "mp-0-1", "ZONE_RESOURCE_POOL_EXHAUSTED")
      .Fault(11, "mp-0-1", "ZONE_RESOURCE_POOL_EXHAUSTED")
      .Fault(21, "mp-0-1", "ZONE_RESOURCE_POOL_EXHAUSTED")
      .Row(31, "Instance", "mp-0-1", "state", "", "PROVISIONING")
      .Row(33, "Instance", "mp-0-1", "state", "PROVISIONING", "STAGING")
      .Row(61, "Instance", "mp-0-1", "state", "STAGING", "RUNNING");
  CriticalPath p = t.Path(100, false, "at the horizon: phase Provisioning");
  ExpectSteps(p, {{0, 1, "request", "mp-0-1"},
                  {1, 31, "capacity", "mp-0-1"},
                  {31, 61, "launch", "mp-0-1"},
                  {61, 100, "not-converged", ""}});
  EXPECT_EQ(p.steps[1].what,
            "the cloud retrying instance mp-0-1 after ZONE_RESOURCE_POOL_EXHAUSTED, 3 times");
  EXPECT_EQ(p.steps[3].what,
            "still not converged at the end of the run: at the horizon: phase Provisioning");
}

// VMSS: Creating -> Succeeded is a launch; a scale-down waits for Deleting ->
// Deleted and then for the providerID to leave the list.
TEST(CriticalPath, VmssScaleDown) {
  Timeline t;
  t.Row(3, "Instance", "vm-2", "state", "Succeeded", "Deleting")
      .Row(43, "Instance", "vm-2", "state", "Deleting", "Deleted")
      .Row(50, "InfraMachinePool", "mp-0", "providerIDList", "azure:///vms/vm-2", "")
      .Row(50, "Node", "vm-2", "deleted", "false", "true")
      .Row(51, "MachinePool", "mp-0", "nodeRef", "vm-2", "");
  CriticalPath p = t.Path(52, true);
  ExpectSteps(p, {{0, 3, "delete-start", "vm-2"},
                  {3, 43, "delete", "vm-2"},
                  {43, 50, "node-deleted", "vm-2"},
                  {50, 51, "nodeRef", "vm-2"},
                  {51, 52, "status", ""}});
}

// A fault on no instance (a reordered API answer for the pool) after the
// last Node became Ready is not what the pool waited for.
TEST(CriticalPath, FaultsOnNoInstanceAreNoCauseOfConvergence) {
  Timeline t;
  t.Row(2, "Instance", "i-1", "state", "", "Launching")
      .Row(32, "Instance", "i-1", "state", "Launching", "Running")
      .Row(72, "Node", "i-1", "registered", "false", "true")
      .Row(77, "Node", "i-1", "Ready", "False", "True")
      .Fault(80, "mp-0", "describe.reordered")
      .Fault(90, "mp-0", "describe.reordered");
  ExpectSteps(t.Path(95, true), {{0, 2, "create", "i-1"},
                                 {2, 32, "launch", "i-1"},
                                 {32, 72, "register", "i-1"},
                                 {72, 77, "node-ready", "i-1"},
                                 {77, 95, "status", ""}});
}

TEST(CriticalPath, NothingToWaitFor) {
  CriticalPath p = Timeline().Path(0, true);
  EXPECT_TRUE(p.steps.empty());
}

TEST(InstanceStates, EveryProvidersNames) {
  for (const char* s : {"Launching", "Pending", "PROVISIONING", "STAGING", "Creating"})
    EXPECT_EQ(StageOf(s), InstanceStage::kCreating) << s;
  for (const char* s :
       {"Running", "InService", "Pending:Wait", "Pending:Proceed", "RUNNING", "Succeeded"})
    EXPECT_EQ(StageOf(s), InstanceStage::kRunning) << s;
  for (const char* s :
       {"Deleting", "Terminating", "Terminating:Wait", "Terminating:Proceed", "STOPPING"})
    EXPECT_EQ(StageOf(s), InstanceStage::kDeleting) << s;
  for (const char* s : {"Terminated", "TERMINATED", "Deleted"})
    EXPECT_EQ(StageOf(s), InstanceStage::kGone) << s;
  EXPECT_EQ(StageOf("Failed"), InstanceStage::kFailed);
  EXPECT_EQ(StageOf("Hibernated"), InstanceStage::kOther);  // a name no provider lists
}

// A name two providers list means the same to both (StageOf keeps the
// first provider's stage).
TEST(InstanceStates, ProvidersAgreeOnSharedNames) {
  for (const ProviderRegistration& p : Providers()) {
    for (const InstanceStateName& s : p.instance_states)
      EXPECT_EQ(StageOf(s.state), s.stage) << p.block << " " << s.state;
  }
}

}  // namespace
}  // namespace mpsim
