// RunOptions trims what a run computes after the loop, never the run itself:
// a sweep leaves out the critical path and gets the same metrics, and `mpsim
// run`, which leaves its world unfreed, the same outputs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/world.h"
#include "scenario/loader.h"

namespace mpsim {
namespace {

proto::Scenario Demo() {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_TRUE(
      LoadScenario(std::string(MPSIM_SOURCE_DIR) + "/scenarios/demo.yaml", {}, &sc, &errors))
      << (errors.empty() ? "" : errors[0].String());
  return sc;
}

TEST(RunOptions, WithoutCriticalPathTheSummaryKeepsEveryOtherField) {
  const proto::Scenario sc = Demo();
  RunOutput full, trimmed;
  std::string error;
  ASSERT_TRUE(RunScenario(sc, 7, &full, &error)) << error;
  ASSERT_TRUE(RunScenario(sc, 7, &trimmed, &error, {.critical_path = false})) << error;
  ASSERT_EQ(full.summary.pools_size(), 1);
  ASSERT_EQ(trimmed.summary.pools_size(), 1);
  EXPECT_TRUE(full.summary.pools(0).has_critical_path());
  EXPECT_GT(full.summary.pools(0).critical_path().ByteSizeLong(), 0u);
  EXPECT_FALSE(trimmed.summary.pools(0).has_critical_path());
  proto::RunSummary without = full.summary;
  without.mutable_pools(0)->clear_critical_path();
  EXPECT_EQ(without.SerializeAsString(), trimmed.summary.SerializeAsString());
}

TEST(RunOptions, AWorldLeftUnfreedGivesTheSameOutputs) {
  const proto::Scenario sc = Demo();
  RunOutput freed, kept;
  std::string error;
  ASSERT_TRUE(RunScenario(sc, 7, &freed, &error)) << error;
  ASSERT_TRUE(RunScenario(sc, 7, &kept, &error, {.free_world = false})) << error;
  EXPECT_EQ(freed.summary.SerializeAsString(), kept.summary.SerializeAsString());
  ASSERT_EQ(freed.recorder.rows().size(), kept.recorder.rows().size());
  EXPECT_GT(kept.recorder.rows().size(), 0u);
  EXPECT_EQ(freed.recorder.rows().back().to, kept.recorder.rows().back().to);
}

}  // namespace
}  // namespace mpsim
