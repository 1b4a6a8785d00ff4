// A run stopped by spec.limits is an error naming the limit and how to raise
// it; a zero-delay loop names the objects involved.
#include "app/run_limits.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/world.h"
#include "scenario/loader.h"

namespace mpsim {
namespace {

proto::Scenario Demo(const std::vector<std::string>& overrides) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_TRUE(LoadScenario(std::string(MPSIM_SOURCE_DIR) + "/scenarios/demo.yaml", {overrides}, &sc,
                           &errors))
      << (errors.empty() ? "" : errors[0].String());
  return sc;
}

TEST(RunLimits, DefaultsLetTheDemoFinish) {
  proto::Scenario sc = Demo({});
  EXPECT_EQ(sc.spec().limits().max_events(), 200'000'000u);
  EXPECT_EQ(sc.spec().limits().max_memory_mib(), 8192);
  EXPECT_EQ(sc.spec().limits().max_events_per_instant(), 5'000'000u);
  RunOutput out;
  std::string error;
  EXPECT_TRUE(RunScenario(sc, 1, &out, &error)) << error;
}

TEST(RunLimits, EventBudgetIsAnErrorSayingHowToRaiseIt) {
  RunOutput out;
  std::string error;
  EXPECT_FALSE(RunScenario(Demo({"spec.limits.maxEvents=50"}), 1, &out, &error));
  EXPECT_NE(error.find("after 50 events"), std::string::npos) << error;
  EXPECT_NE(error.find("--set spec.limits.maxEvents=100"), std::string::npos) << error;
}

TEST(RunLimits, MemoryBudgetIsAnError) {
  RunOutput out;
  std::string error;
  EXPECT_FALSE(RunScenario(Demo({"spec.limits.maxMemoryMiB=1"}), 1, &out, &error));
  EXPECT_NE(error.find("over its budget spec.limits.maxMemoryMiB (1)"), std::string::npos) << error;
}

TEST(RunLimits, StalledClockNamesTheBusiestObjects) {
  // Every delay of the demo is random, so events share an instant only at
  // the start: a limit of 1 trips there.
  RunOutput out;
  std::string error;
  EXPECT_FALSE(RunScenario(Demo({"spec.limits.maxEventsPerInstant=1"}), 1, &out, &error));
  EXPECT_EQ(error.rfind("zero-delay event loop: the simulated clock stopped at t=", 0), 0u)
      << error;
  // The pool's creation writes spec.replicas and spec.version (two rows),
  // the Cluster its ControlPlaneInitialized (one); busiest first.
  EXPECT_NE(
      error.find("objects involved: MachinePool/mp-0 (2 changes), Cluster/workload (1 change)"),
      std::string::npos)
      << error;
}

TEST(RunLimits, ZeroIsNotALimit) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_FALSE(LoadScenario(std::string(MPSIM_SOURCE_DIR) + "/scenarios/demo.yaml",
                            {{"spec.limits.maxEvents=0"}}, &sc, &errors));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].String().find("spec.limits.maxEvents: expected at least 1"),
            std::string::npos)
      << errors[0].String();
}

TEST(BusiestObjectsAt, RanksReconcilesAndChangesAtThatInstant) {
  Recorder rec;
  rec.Reconcile({"machinepool", "mp-0", 0, kSecond, "ok"});  // before t: not counted
  for (int i = 0; i < 3; ++i)
    rec.Reconcile({"machinepool", "mp-1", 2 * kSecond, 2 * kSecond, "ok"});
  rec.Reconcile({"asg", "mp-1", 2 * kSecond, 2 * kSecond, "ok"});
  rec.Change(2 * kSecond, "MachinePool", "mp-1", "phase", "A", "B");
  rec.Change(2 * kSecond, "MachinePool", "mp-1", "phase", "B", "A");
  EXPECT_EQ(BusiestObjectsAt(rec, 2 * kSecond, 5),
            "machinepool/mp-1 (3 reconciles), MachinePool/mp-1 (2 changes), asg/mp-1 (1 "
            "reconcile)");
  EXPECT_EQ(BusiestObjectsAt(rec, 2 * kSecond, 1), "machinepool/mp-1 (3 reconciles) and 2 more");
  EXPECT_EQ(BusiestObjectsAt(rec, 5 * kSecond, 5), "");
}

}  // namespace
}  // namespace mpsim
