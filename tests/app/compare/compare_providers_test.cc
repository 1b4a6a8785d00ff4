// One scenario on every cloud (DESIGN.md `mpsim compare SCENARIO --providers`):
// each pool's provider block is renamed and keeps only the keys every cloud
// shares, so the rest takes the target cloud's defaults.
#include "app/compare/compare_providers.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

constexpr const char* kCompareScenario = R"(apiVersion: mpsim/v1
kind: Scenario
metadata: {name: two-pools}
spec:
  machinePools:
    - name: a
      provider:
        asg: {zones: [z1, z2], launchDelay: {dist: constant, value: 10s}, iceProbability: 0.5}
    - name: b
      provider: {test: {deleteDelay: {dist: constant, value: 5s}, readyWhen: allRunning}}
)";

TEST(RetargetScenario, KeepsTheSharedKeysAndDropsTheCloudsOwn) {
  std::string out, error;
  ASSERT_TRUE(RetargetScenario(kCompareScenario, "mig", &out, &error)) << error;
  const YAML::Node pools = YAML::Load(out)["spec"]["machinePools"];
  const YAML::Node a = pools[0]["provider"];
  ASSERT_EQ(a.size(), 1u);
  ASSERT_TRUE(a["mig"]);
  EXPECT_EQ(a["mig"]["zones"][1].as<std::string>(), "z2");
  EXPECT_EQ(a["mig"]["launchDelay"]["value"].as<std::string>(), "10s");
  EXPECT_FALSE(a["mig"]["iceProbability"]);
  const YAML::Node b = pools[1]["provider"]["mig"];
  EXPECT_EQ(b["deleteDelay"]["value"].as<std::string>(), "5s");
  EXPECT_FALSE(b["readyWhen"]);
  EXPECT_EQ(pools[1]["name"].as<std::string>(), "b");
}

TEST(RetargetScenario, AFileWithoutPoolsIsAnError) {
  std::string out, error;
  EXPECT_FALSE(RetargetScenario("spec: {}\n", "asg", &out, &error));
  EXPECT_NE(error.find("spec.machinePools"), std::string::npos) << error;
}

TEST(CliE2ECompareProviders, RunsTheScenarioOnEachProviderSideBySide) {
  const auto dir = testing::ScratchPath("compare_providers");
  std::filesystem::remove_all(dir);
  auto r = testing::Mpsim("compare " + testing::Src("scenarios/demo.yaml") +
                          " --providers asg,mig --json --out " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["providers"], nlohmann::json({"asg", "mig"}));
  bool saw_converge = false;
  for (const auto& row : j["rows"]) {
    if (row["pool"] == "mp-0" && row["metric"] == "time_to_converge_s") {
      saw_converge = row["values"]["asg"].is_number() && row["values"]["mig"].is_number();
    }
  }
  EXPECT_TRUE(saw_converge) << r.out;
  for (const char* p : {"asg", "mig"}) {
    const auto summary = nlohmann::json::parse(testing::Slurp(dir / p / "summary.json"));
    EXPECT_EQ(summary["pools"][0]["provider"], p);
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "compare.json"));
  std::filesystem::remove_all(dir);
}

TEST(CliE2ECompareProviders, AnUnknownProviderIsBadInput) {
  auto r = testing::Mpsim("compare " + testing::Src("scenarios/demo.yaml") + " --providers asg,ibm",
                          true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("unknown provider \"ibm\""), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mpsim
