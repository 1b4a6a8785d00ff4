// The controllers of one object per machine (CAPA's AWSMachine, CAPZ's
// AzureMachinePoolMachine) in a run with three providers' MachinePool
// Machines: each informer holds its own kind only, so neither the events nor
// the 10-minute resyncs (at 10 and 20 min here) give it another provider's
// machines. They share one typed store in the simulator (docs/architecture.md).
// A member controller's failures count for the member's pool.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/testing/run_scenario.h"

namespace mpsim {
namespace {

constexpr const char* kControllersScenario = R"(apiVersion: mpsim/v1
kind: Scenario
metadata: {name: three-kinds}
spec:
  horizon: 25m
  machinePools:
    - {name: aws-0, replicas: 3, provider: {asg: {machinePoolMachines: true}}}
    - {name: az-0, replicas: 3, provider: {vmss: {machinePoolMachines: true}}}
    - {name: t-0, replicas: 3, provider: {test: {machinePoolMachines: true}}}
)";

TEST(MachineControllers, EachReconcilesItsOwnKindOnly) {
  RunOutput out;
  std::string error;
  ASSERT_TRUE(RunScenarioText(kControllersScenario, &out, &error)) << error;
  // The pool each controller may name: its machines are "<pool>-<instance>".
  const std::map<std::string, std::string> own{{"awsmachine", "aws-0-"},
                                               {"azuremachinepoolmachine", "az-0-"}};
  std::map<std::string, int> seen;
  for (const ReconcileSpan& r : out.recorder.reconciles()) {
    auto it = own.find(r.controller);
    if (it == own.end()) continue;
    ++seen[r.controller];
    EXPECT_EQ(r.object.rfind(it->second, 0), 0u)
        << r.controller << " reconciled " << r.object << " at " << r.start;
  }
  EXPECT_GT(seen["awsmachine"], 0);
  EXPECT_GT(seen["azuremachinepoolmachine"], 0);
}

// A member's controller fails for the pool whose label its object carries:
// three Machines deleted at once against a mutating bucket of one request,
// so CAPA's AWSMachine controller has TerminateInstances refused (summary.json's
// last_errors, issue 48).
constexpr const char* kMemberErrorsScenario = R"(apiVersion: mpsim/v1
kind: Scenario
metadata: {name: member-errors}
spec:
  horizon: 20m
  machinePools:
    - name: mp-0
      replicas: 4
      provider:
        asg:
          machinePoolMachines: true
          apiThrottling: {enabled: true, mutatingBurst: 1, mutatingRefill: 1}
    - {name: other, replicas: 1, provider: {asg: {machinePoolMachines: true}}}
  events:
    - {at: 5m, deleteMachine: {pool: mp-0, index: 0}}
    - {at: 5m, deleteMachine: {pool: mp-0, index: 1}}
    - {at: 5m, deleteMachine: {pool: mp-0, index: 2}}
)";

TEST(MachineControllers, AMembersFailuresCountForItsPool) {
  RunOutput out;
  std::string error;
  ASSERT_TRUE(RunScenarioText(kMemberErrorsScenario, &out, &error)) << error;
  ASSERT_EQ(out.summary.pools_size(), 2);
  const proto::PoolSummary& mp = out.summary.pools(0);
  const proto::ControllerErrors* aws = nullptr;
  for (const proto::ControllerErrors& e : mp.last_errors()) {
    if (e.controller() == "awsmachine") aws = &e;
  }
  ASSERT_NE(aws, nullptr) << mp.DebugString();
  EXPECT_GE(aws->count(), 1u);
  EXPECT_NE(aws->message().find("(ec2:TerminateInstances)"), std::string::npos) << aws->message();
  EXPECT_GE(aws->first_time_s(), 300);
  for (const proto::ControllerErrors& e : out.summary.pools(1).last_errors()) {
    EXPECT_NE(e.controller(), "awsmachine") << out.summary.pools(1).DebugString();
  }
}

}  // namespace
}  // namespace mpsim
