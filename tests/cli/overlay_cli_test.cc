// `--overlay FILE` end to end: a run with an overlay writes what the scenario
// with those keys written in writes; --set wins over the overlay; errors name
// the overlay; sweep records it, check replays it, compare runs it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Mpsim;
using testing::Ran;
using testing::Slurp;
using testing::Src;

const char* kOverlayCliFitted = R"(spec:
  workloadCluster:
    nodeReady: {dist: constant, value: 5s}
  machinePools:
    - name: mp-0
      provider: {test: {launchDelay: {dist: constant, value: 20s}}}
)";

// scenarios/demo.yaml with kOverlayCliFitted's keys written in by hand.
const char* kOverlayCliWrittenIn = R"(apiVersion: mpsim/v1
kind: Scenario
metadata:
  name: demo
  description: One test-provider pool scaled from 0 to 3.
spec:
  seed: 1
  horizon: 30m
  workloadCluster:
    nodeReady: {dist: constant, value: 5s}
  machinePools:
    - name: mp-0
      replicas: 0
      version: v1.30.0
      provider:
        test:
          launchDelay: {dist: constant, value: 20s}
  events:
    - at: 0s
      scale: {pool: mp-0, replicas: 3}
  expect:
    - {pool: mp-0, phase: Running, within: 10m}
)";

fs::path OverlayCliFile(const std::string& name, const std::string& text) {
  const fs::path p = testing::ScratchPath("ovl_" + name);
  std::ofstream(p) << text;
  return p;
}

fs::path OverlayCliOut(const std::string& name) {
  const fs::path d = testing::ScratchPath("ovl_out_" + name);
  fs::remove_all(d);
  return d;
}

TEST(CliE2EOverlay, RunEqualsTheScenarioWithTheKeysWrittenIn) {
  const fs::path overlay = OverlayCliFile("fitted.yaml", kOverlayCliFitted);
  const fs::path written = OverlayCliFile("written.yaml", kOverlayCliWrittenIn);
  const fs::path a = OverlayCliOut("a"), b = OverlayCliOut("b"), plain = OverlayCliOut("plain");
  Ran r = Mpsim("run " + Src("scenarios/demo.yaml") + " --quiet --overlay " + overlay.string() +
                " --out " + a.string());
  ASSERT_EQ(r.status, 0) << r.out;
  r = Mpsim("run " + written.string() + " --quiet --out " + b.string());
  ASSERT_EQ(r.status, 0) << r.out;
  r = Mpsim("run " + Src("scenarios/demo.yaml") + " --quiet --out " + plain.string());
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* file : {"summary.json", "timeline.csv"}) {
    EXPECT_TRUE(Slurp(a / file) == Slurp(b / file)) << file;
  }
  // The overlay changed the run: demo's own lognormal launches differ.
  EXPECT_FALSE(Slurp(a / "timeline.csv") == Slurp(plain / "timeline.csv"));
}

TEST(CliE2EOverlay, SetWinsOverTheOverlay) {
  const fs::path overlay = OverlayCliFile("seed.yaml", "spec: {seed: 5}\n");
  const fs::path out = OverlayCliOut("seed");
  Ran r = Mpsim("run " + Src("scenarios/demo.yaml") + " --json --overlay " + overlay.string() +
                " --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["seed"], 5);
  r = Mpsim("run " + Src("scenarios/demo.yaml") + " --json --overlay " + overlay.string() +
            " --set spec.seed=7 --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["seed"], 7);
}

TEST(CliE2EOverlay, AnErrorNamesTheOverlayFileLineAndColumn) {
  const fs::path overlay = OverlayCliFile("typo.yaml", "spec:\n  horizn: 2h\n");
  Ran r = Mpsim("run " + Src("scenarios/demo.yaml") + " --overlay " + overlay.string(),
                /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("error: " + overlay.string() +
                       ":2:3: spec.horizn: unknown key \"horizn\"; did you mean \"horizon\"?"),
            std::string::npos)
      << r.out;
  r = Mpsim("run " + Src("scenarios/demo.yaml") + " --overlay /nonexistent/o.yaml",
            /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("error: /nonexistent/o.yaml: cannot open the overlay"), std::string::npos)
      << r.out;
}

TEST(CliE2EOverlay, SweepRecordsTheOverlayInItsPlan) {
  const fs::path overlay = OverlayCliFile("sweep.yaml", "spec: {seed: 5}\n");
  const fs::path out = OverlayCliOut("sweep");
  Ran r = Mpsim("sweep " + Src("scenarios/demo.yaml") + " --seeds 2 --overlay " + overlay.string() +
                    " --out " + out.string(),
                /*with_stderr=*/true);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto sweep = nlohmann::json::parse(Slurp(out / "sweep.json"));
  EXPECT_EQ(sweep["plan"]["overlay"]["path"], overlay.string());
  EXPECT_EQ(sweep["plan"]["overlay"]["fnv1a"].get<std::string>().size(), 16u);
  // The overlay's seed is the sweep's root seed.
  EXPECT_EQ(sweep["plan"]["root_seed"], 5);
  // The same command with the overlay's text changed is another sweep.
  const fs::path other = OverlayCliFile("sweep.yaml", "spec: {seed: 5, horizon: 20m}\n");
  r = Mpsim("sweep " + Src("scenarios/demo.yaml") + " --seeds 2 --overlay " + other.string() +
                " --out " + out.string(),
            /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("holds another sweep"), std::string::npos) << r.out;
}

TEST(CliE2EOverlay, CheckAppliesTheOverlayAndReplaysIt) {
  // Running within 1s cannot hold: the overlay's expectation replaces demo's.
  const fs::path overlay = OverlayCliFile(
      "expect.yaml", "spec:\n  expect:\n    - {pool: mp-0, phase: Running, within: 1s}\n");
  Ran r = Mpsim("check " + Src("scenarios/demo.yaml") + " --overlay " + overlay.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("replay: mpsim run " + Src("scenarios/demo.yaml") + " --seed 1 --overlay '" +
                       overlay.string() + "'"),
            std::string::npos)
      << r.out;
}

TEST(CliE2EOverlay, CompareRunsTheOverlaidScenarioOnEachProvider) {
  // The overlay is merged before the blocks are renamed: its launchDelay,
  // a shared key, reaches every cloud. Launches of 1h never end within
  // demo's 30m horizon.
  const fs::path overlay =
      OverlayCliFile("compare.yaml",
                     "spec:\n  seed: 5\n  machinePools:\n    - name: mp-0\n"
                     "      provider: {test: {launchDelay: {dist: constant, value: 1h}}}\n");
  const fs::path out = OverlayCliOut("compare");
  Ran r = Mpsim("compare " + Src("scenarios/demo.yaml") + " --providers asg,vmss --overlay " +
                overlay.string() + " --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* p : {"asg", "vmss"}) {
    const auto summary = nlohmann::json::parse(Slurp(out / p / "summary.json"));
    EXPECT_EQ(summary["seed"], 5) << p;
    EXPECT_EQ(summary["pools"][0]["converged"], false) << p;
  }
  EXPECT_EQ(Mpsim("compare a b --overlay " + overlay.string()).status, 2);
}

}  // namespace
}  // namespace mpsim
