// The controllers of one object per machine (CAPA's AWSMachine, CAPZ's
// AzureMachinePoolMachine) in a run with three providers' MachinePool
// Machines: each informer holds its own kind only, so neither the events nor
// the 10-minute resyncs (at 10 and 20 min here) give it another provider's
// machines. They share one typed store in the simulator (docs/architecture.md).
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

}  // namespace
}  // namespace mpsim
