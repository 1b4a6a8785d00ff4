// End-to-end checks of the mpsim binary as a user's CI drives it: exit
// codes, output files, determinism across runs and seeds.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;

using testing::Mpsim;
using testing::Ran;
using testing::Slurp;
using testing::Src;

fs::path OutDir(const std::string& name) {
  fs::path d = testing::ScratchPath("cli_" + name);
  fs::remove_all(d);
  return d;
}

TEST(CliE2E, VersionNamesTheCommit) {
  Ran r = Mpsim("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("mpsim "), std::string::npos);
  EXPECT_NE(r.out.find("commit"), std::string::npos);
}

TEST(CliE2E, DesignExampleValidatesUnchanged) {
  EXPECT_EQ(Mpsim("validate " + Src("scenarios/examples/design-example.yaml")).status, 0);
}

TEST(CliE2E, BadFlagAndMissingFileExitTwo) {
  EXPECT_EQ(Mpsim("run --no-such-flag x.yaml").status, 2);
  EXPECT_EQ(Mpsim("run /nonexistent/scenario.yaml").status, 2);
  EXPECT_EQ(Mpsim("").status, 2);
}

TEST(CliE2E, RunWritesTheThreeOutputs) {
  fs::path d = OutDir("outputs");
  Ran r = Mpsim("run " + Src("scenarios/demo.yaml") + " --quiet --out " + d.string());
  ASSERT_EQ(r.status, 0);
  auto summary = nlohmann::json::parse(Slurp(d / "summary.json"));
  EXPECT_EQ(summary["scenario"], "demo");
  ASSERT_EQ(summary["pools"].size(), 1u);
  const auto& pool = summary["pools"][0];
  for (const char* key :
       {"name", "provider", "final_phase", "phase_transitions", "desired_replicas",
        "ready_replicas", "available_replicas", "converged", "time_to_converge_s",
        "matching_latency_s", "reconciles", "provider_api_calls", "faults_injected"}) {
    EXPECT_TRUE(pool.contains(key)) << key;
  }
  EXPECT_EQ(Slurp(d / "timeline.csv").rfind("time_s,object_kind,object,field,from,to\n", 0), 0u);
  auto trace = nlohmann::json::parse(Slurp(d / "trace.json"));
  EXPECT_TRUE(trace["traceEvents"].is_array());
  EXPECT_FALSE(fs::exists(d / "summary.json.tmp"));
}

// mpsim reserves 1 GiB of heap address space for huge pages at start-up
// (app/huge_pages.h). Where that cannot be had, here under a 900 MB
// address-space limit, a run must go on as an ordinary one.
TEST(CliE2E, RunsWhereTheHugePageReserveIsRefused) {
  fs::path d = OutDir("no_reserve");
  const std::string cmd = "ulimit -v 900000 && " + std::string(MPSIM_BINARY) + " run " +
                          Src("scenarios/demo.yaml") + " --quiet --out " + d.string() +
                          " 2>/dev/null";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(fs::exists(d / "summary.json"));
}

TEST(CliE2E, SameSeedGivesByteIdenticalOutputs) {
  fs::path a = OutDir("det_a"), b = OutDir("det_b");
  ASSERT_EQ(
      Mpsim("run " + Src("scenarios/demo.yaml") + " --quiet --seed 5 --out " + a.string()).status,
      0);
  ASSERT_EQ(
      Mpsim("run " + Src("scenarios/demo.yaml") + " --quiet --seed 5 --out " + b.string()).status,
      0);
  for (const char* f : {"summary.json", "timeline.csv", "trace.json"}) {
    EXPECT_EQ(Slurp(a / f), Slurp(b / f)) << f;
  }
}

TEST(CliE2E, DifferentSeedChangesTheTimeline) {
  fs::path a = OutDir("seed_a"), b = OutDir("seed_b");
  ASSERT_EQ(
      Mpsim("run " + Src("scenarios/demo.yaml") + " --quiet --seed 1 --out " + a.string()).status,
      0);
  ASSERT_EQ(
      Mpsim("run " + Src("scenarios/demo.yaml") + " --quiet --seed 2 --out " + b.string()).status,
      0);
  EXPECT_NE(Slurp(a / "timeline.csv"), Slurp(b / "timeline.csv"));
}

TEST(CliE2E, JsonPrintsTheSummary) {
  fs::path d = OutDir("json");
  Ran r = Mpsim("run " + Src("scenarios/demo.yaml") + " --json --out " + d.string());
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(r.out, Slurp(d / "summary.json"));
}

TEST(CliE2E, SetOverrideChangesTheRun) {
  fs::path d = OutDir("set");
  Ran r = Mpsim("run " + Src("scenarios/demo.yaml") +
                " --json --set spec.events[0].scale.replicas=5 --out " + d.string());
  ASSERT_EQ(r.status, 0);
  auto s = nlohmann::json::parse(r.out);
  EXPECT_EQ(s["pools"][0]["desired_replicas"], 5);
  EXPECT_EQ(Mpsim("run " + Src("scenarios/demo.yaml") + " --set spec.nope=1").status, 2);
}

}  // namespace
}  // namespace mpsim
