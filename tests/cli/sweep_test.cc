// `mpsim sweep` and `mpsim merge` end to end: the files do not depend on
// --jobs, on being killed and resumed, or on being sharded and merged; bad
// lists and mismatched shards exit 2; the Kubernetes manifest has the shape
// scripts/k8s/README.md relies on.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/testing/run_mpsim.h"

extern char** environ;

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Mpsim;
using testing::Ran;
using testing::Slurp;
using testing::Src;

const std::string kSet = "spec.events[0].scale.replicas=3,10..20:10";

fs::path FreshSweepDir(const std::string& name) {
  const fs::path d = testing::ScratchPath("sweep_" + name);
  fs::remove_all(d);
  return d;
}

Ran Sweep(const fs::path& out, const std::string& extra, int seeds = 6) {
  return Mpsim("sweep " + Src("scenarios/demo.yaml") + " --seeds " + std::to_string(seeds) +
                   " --set '" + kSet + "' --out '" + out.string() + "' " + extra,
               /*with_stderr=*/true);
}

void ExpectSameFiles(const fs::path& a, const fs::path& b) {
  for (const char* name : {"sweep.csv", "sweep.json"}) {
    ASSERT_TRUE(fs::exists(a / name)) << a / name;
    ASSERT_TRUE(fs::exists(b / name)) << b / name;
    EXPECT_TRUE(Slurp(a / name) == Slurp(b / name)) << name << " differs: " << a << " " << b;
  }
}

TEST(CliE2ESweep, JobsOneAndTwoGiveTheSameBytes) {
  const fs::path one = FreshSweepDir("jobs1"), two = FreshSweepDir("jobs2");
  Ran r = Sweep(one, "--jobs 1");
  ASSERT_EQ(r.status, 0) << r.out;
  r = Sweep(two, "--jobs 2");
  ASSERT_EQ(r.status, 0) << r.out;
  ExpectSameFiles(one, two);
  // 3 points x 6 seeds, one line each under the header.
  const std::string csv = Slurp(one / "sweep.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 19);
  EXPECT_NE(Slurp(one / "sweep.json").find("\"fits\""), std::string::npos);
}

// A row's seed and parameters replay that run alone with `mpsim run`.
TEST(CliE2ESweep, RowsReplayWithMpsimRun) {
  const fs::path out = FreshSweepDir("replay");
  ASSERT_EQ(Sweep(out, "--jobs 2", 2).status, 0);
  std::istringstream csv(Slurp(out / "sweep.csv"));
  std::string header, row;
  std::getline(csv, header);
  for (int i = 0; i < 4; ++i) std::getline(csv, row);  // point 1 (replicas 10), seed index 1
  std::vector<std::string> cells;
  std::istringstream cols(row);
  for (std::string c; std::getline(cols, c, ',');) cells.push_back(c);
  ASSERT_EQ(cells[0] + "," + cells[1] + "," + cells[3], "1,1,10") << row;
  Ran r = Mpsim("run " + Src("scenarios/demo.yaml") + " --json --seed " + cells[2] +
                " --set spec.events[0].scale.replicas=10 --out '" + (out / "run").string() + "'");
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.out;
  const std::string events = "\"events_processed\": " + cells[5] + ",";
  EXPECT_NE(r.out.find(events), std::string::npos) << events << "\n" << r.out.substr(0, 400);
}

TEST(CliE2ESweep, ShardsMergedEqualOneMachine) {
  const fs::path whole = FreshSweepDir("whole"), merged = FreshSweepDir("merged");
  ASSERT_EQ(Sweep(whole, "--jobs 2").status, 0);
  std::string dirs;
  for (int i = 0; i < 3; ++i) {
    const fs::path shard = FreshSweepDir("shard" + std::to_string(i));
    Ran r = Sweep(shard, "--jobs 1 --shard " + std::to_string(i) + "/3");
    ASSERT_EQ(r.status, 0) << r.out;
    dirs += " '" + shard.string() + "'";
  }
  Ran r = Mpsim("merge" + dirs + " --out '" + merged.string() + "'", true);
  ASSERT_EQ(r.status, 0) << r.out;
  ExpectSameFiles(whole, merged);
}

// Starts a sweep big enough to take a moment; returns its pid.
pid_t StartSweep(const fs::path& out) {
  std::vector<std::string> args = {MPSIM_BINARY, "sweep",     Src("scenarios/demo.yaml"),
                                   "--seeds",    "30",        "--set",
                                   kSet,         "--jobs",    "2",
                                   "--out",      out.string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawn(&pid, MPSIM_BINARY, nullptr, nullptr, argv.data(), environ) != 0) return -1;
  return pid;
}

size_t JournalLines(const fs::path& out) {
  const std::string journal = Slurp(out / ".sweep.journal");
  return std::count(journal.begin(), journal.end(), '\n');
}

// Sends `sig` once this sweep has added a few runs to the journal (or ended); the exit
// status, -1 if the signal killed it.
int InterruptWhenStarted(pid_t pid, const fs::path& out, size_t before, int sig) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline && ::waitpid(pid, nullptr, WNOHANG) == 0) {
    if (JournalLines(out) > before + 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid, sig);
  int st = 0;
  ::waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(CliE2ESweep, KilledAndResumedEqualsUninterrupted) {
  const fs::path whole = FreshSweepDir("uninterrupted"), resumed = FreshSweepDir("resumed");
  ASSERT_EQ(Mpsim("sweep " + Src("scenarios/demo.yaml") + " --seeds 30 --set '" + kSet +
                  "' --jobs 1 --out '" + whole.string() + "'")
                .status,
            0);
  pid_t pid = StartSweep(resumed);
  ASSERT_GT(pid, 0);
  const int after_kill = InterruptWhenStarted(pid, resumed, 0, SIGKILL);
  const size_t kept = JournalLines(resumed);
  pid = StartSweep(resumed);
  ASSERT_GT(pid, 0);
  const int after_int = InterruptWhenStarted(pid, resumed, kept, SIGINT);
  // 130 when Ctrl-C stopped it; 0 if the sweep had finished first.
  EXPECT_TRUE(after_int == 130 || after_int == 0) << after_int;
  EXPECT_TRUE(after_kill == -1 || after_kill == 0) << after_kill;
  Ran r = Mpsim("sweep " + Src("scenarios/demo.yaml") + " --seeds 30 --set '" + kSet +
                    "' --jobs 2 --out '" + resumed.string() + "'",
                true);
  ASSERT_EQ(r.status, 0) << r.out;
  ExpectSameFiles(whole, resumed);
  EXPECT_FALSE(fs::exists(resumed / ".sweep.journal"));
}

TEST(CliE2ESweep, BadListsAndMismatchedShardsExit2) {
  const fs::path out = FreshSweepDir("bad");
  for (const char* set : {"spec.events[0].scale.replicas=3,,4", "spec.events[0].scale.replicas=1..",
                          "spec.events[0].scale.replicas=-1,2", "spec.nokey=1,2", "novalue"}) {
    Ran r = Mpsim("sweep " + Src("scenarios/demo.yaml") + " --seeds 2 --set '" + set + "' --out '" +
                      out.string() + "'",
                  true);
    EXPECT_EQ(r.status, 2) << set << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("error: ", 0), 0u) << set << "\n" << r.out;
  }
  EXPECT_EQ(Sweep(out, "--shard 2/2").status, 2);
  // Shards of sweeps with different seeds, and an incomplete set of shards.
  const fs::path a = FreshSweepDir("mis_a"), b = FreshSweepDir("mis_b");
  ASSERT_EQ(Sweep(a, "--shard 0/2", 2).status, 0);
  ASSERT_EQ(Sweep(b, "--shard 1/2", 3).status, 0);
  Ran r =
      Mpsim("merge '" + a.string() + "' '" + b.string() + "' --out '" + out.string() + "'", true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("another sweep"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("seeds"), std::string::npos) << r.out;
  r = Mpsim("merge '" + a.string() + "' --out '" + out.string() + "'", true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("shard 1/2 is missing"), std::string::npos) << r.out;
  // Resuming into a directory of another sweep is refused too.
  r = Sweep(a, "--shard 0/2", 5);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("holds another sweep"), std::string::npos) << r.out;
}

TEST(CliE2ESweep, KubernetesIndexedJobShape) {
  const YAML::Node job = YAML::LoadFile(Src("scripts/k8s/sweep-job.yaml"));
  EXPECT_EQ(job["apiVersion"].as<std::string>(), "batch/v1");
  EXPECT_EQ(job["kind"].as<std::string>(), "Job");
  const YAML::Node spec = job["spec"];
  EXPECT_EQ(spec["completionMode"].as<std::string>(), "Indexed");
  ASSERT_TRUE(spec["completions"]);
  const YAML::Node pod = spec["template"]["spec"];
  EXPECT_EQ(pod["restartPolicy"].as<std::string>(), "OnFailure");
  const YAML::Node c = pod["containers"][0];
  ASSERT_TRUE(c["image"]);
  std::string command;
  for (const auto& part : c["command"]) command += part.as<std::string>() + " ";
  for (const auto& part : c["args"]) command += part.as<std::string>() + " ";
  EXPECT_NE(command.find("mpsim sweep"), std::string::npos) << command;
  EXPECT_NE(command.find("--shard \"${JOB_COMPLETION_INDEX}/"), std::string::npos) << command;
  // The shard count in the command is the Job's completions.
  EXPECT_NE(command.find("/" + spec["completions"].as<std::string>() + "\""), std::string::npos)
      << command;
  EXPECT_TRUE(fs::exists(Src("scripts/k8s/Dockerfile")));
}

}  // namespace
}  // namespace mpsim
