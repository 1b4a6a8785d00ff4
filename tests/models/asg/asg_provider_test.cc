// The `asg` provider in a whole run: with the MachinePoolMachines gate the
// AWSMachinePool controller reconciles a quiet pool every 3 minutes; without
// it only the 10-minute sync period wakes it (docs/reference/providers.md §1.6.1, §1.6.2).
#include "models/asg/asg_provider.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/testing/run_scenario.h"

namespace mpsim {
namespace {

// Start times of the AWSMachinePool reconciles from 15 min to the 45-min
// horizon, long after the two instances are up and nothing changes.
std::vector<Time> QuietReconciles(bool gate) {
  const std::string yaml =
      "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: gate}\nspec:\n  horizon: 45m\n"
      "  machinePools:\n    - name: mp-0\n      replicas: 2\n      provider:\n        asg:\n"
      "          machinePoolMachines: " +
      std::string(gate ? "true" : "false") + "\n";
  RunOutput out;
  std::string error;
  EXPECT_TRUE(RunScenarioText(yaml, &out, &error)) << error;
  std::vector<Time> starts;
  for (const ReconcileSpan& r : out.recorder.reconciles()) {
    if (r.controller == "awsmachinepool" && r.start >= 15 * kMinute) starts.push_back(r.start);
  }
  return starts;
}

Duration LongestGap(const std::vector<Time>& starts, Time from, Time to) {
  Duration gap = 0;
  Time last = from;
  for (Time t : starts) gap = std::max(gap, t - last), last = t;
  return std::max(gap, to - last);
}

TEST(AsgProvider, MachinePoolMachinesGateRequeuesAQuietPoolEveryThreeMinutes) {
  const std::vector<Time> on = QuietReconciles(true);
  EXPECT_GE(on.size(), 10u);  // 30 min / 3 min
  EXPECT_LE(LongestGap(on, 15 * kMinute, 45 * kMinute), 3 * kMinute + kSecond);
}

TEST(AsgProvider, WithoutTheGateOnlyTheSyncPeriodWakesAQuietPool) {
  const std::vector<Time> off = QuietReconciles(false);
  EXPECT_LE(off.size(), 3u) << "the syncs at 20, 30 and 40 min";
  EXPECT_GE(LongestGap(off, 15 * kMinute, 45 * kMinute), 9 * kMinute);
}

// CAPA's AWSMachinePool controller never reads workload Nodes, so its
// manager keeps no cache of them (a second copy of every Node event).
TEST(AsgProvider, ReadsNoWorkloadNodes) {
  EXPECT_FALSE(asg::AsgProvider(ProviderContext{}).ReadsWorkloadNodes());
}

}  // namespace
}  // namespace mpsim
