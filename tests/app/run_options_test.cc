// RunOptions changes how a run ends, never what it reports: `mpsim run`,
// which leaves its world unfreed, gets the same outputs.
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
