// The autoscaler's scenario library through the real `mpsim check`, and
// issue 52's first case read from summary.json: 100 pending 1-CPU pods on
// 4-CPU nodes grow the pool to 25 nodes (the first node takes 4, the other
// 96 need 24 more), every pod runs, and the pool comes back to its min of 1
// once the pods are gone; the same seed replays byte for byte.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

std::string AutoscalerSlurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ScenarioAutoscaler, LibraryPasses) {
  auto r = testing::Mpsim("check " + testing::Src("scenarios/autoscaler"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
}

TEST(ScenarioAutoscaler, BurstOfAHundredPodsGrowsTheFirstPoolToTwentyFiveAndBack) {
  const auto out = testing::ScratchDir() / "autoscaler-burst";
  auto r = testing::Mpsim("run " + testing::Src("scenarios/autoscaler/burst-100-pods.yaml") +
                          " --quiet --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto s = nlohmann::json::parse(AutoscalerSlurp(out / "summary.json"));
  EXPECT_EQ(s["pods"]["created"], 100);
  EXPECT_EQ(s["pods"]["scheduled"], 100);
  EXPECT_EQ(s["pods"]["pending_at_end"], 0);
  EXPECT_EQ(s["pods"]["scheduling_latency_s"]["count"], 100);
  const auto& pool = s["pools"][0];
  EXPECT_EQ(pool["autoscaler"]["max_replicas_seen"], 25);
  EXPECT_EQ(pool["autoscaler"]["scale_ups"], 1);
  EXPECT_EQ(pool["autoscaler"]["scale_downs"], 24);
  EXPECT_EQ(pool["desired_replicas"], 1);

  const auto again = testing::ScratchDir() / "autoscaler-burst-again";
  ASSERT_EQ(testing::Mpsim("run " + testing::Src("scenarios/autoscaler/burst-100-pods.yaml") +
                           " --quiet --out " + again.string())
                .status,
            0);
  for (const char* f : {"timeline.csv", "trace.json"}) {
    EXPECT_EQ(AutoscalerSlurp(out / f), AutoscalerSlurp(again / f)) << f;
  }
}

// Without `autoscaler:` and pod events, summary.json has no `pods`.
TEST(ScenarioAutoscaler, RunsWithoutPodsSayNothingOfThem) {
  const auto out = testing::ScratchDir() / "autoscaler-none";
  ASSERT_EQ(testing::Mpsim("run " + testing::Src("scenarios/core/autoscaler.yaml") +
                           " --quiet --out " + out.string())
                .status,
            0);
  const auto s = nlohmann::json::parse(AutoscalerSlurp(out / "summary.json"));
  EXPECT_FALSE(s.contains("pods"));
  EXPECT_FALSE(s["pools"][0].contains("autoscaler"));
}

}  // namespace
}  // namespace mpsim
