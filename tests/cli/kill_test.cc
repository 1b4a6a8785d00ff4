// `mpsim run` killed with SIGKILL at random moments never leaves a partial
// output: each of summary.json, timeline.csv and trace.json is absent or
// byte-identical to an uninterrupted run's, summary.json only with the other
// two, and nothing else but hidden temporary files, which the next run removes.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/testing/run_mpsim.h"

extern char** environ;

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Slurp;
using testing::Src;

const std::vector<std::string> kOutputs = {"summary.json", "timeline.csv", "trace.json"};

// Starts `mpsim run` on a pool big enough to take about a second; returns its pid.
pid_t StartRun(const fs::path& out) {
  std::vector<std::string> args = {MPSIM_BINARY, "run",       Src("scenarios/demo.yaml"),
                                   "--quiet",    "--set",     "spec.events[0].scale.replicas=1500",
                                   "--out",      out.string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawn(&pid, MPSIM_BINARY, nullptr, nullptr, argv.data(), environ) != 0) return -1;
  return pid;
}

// Waits for the run; its exit status, or -1 if a signal ended it.
int Wait(pid_t pid) {
  int st = 0;
  ::waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void ExpectNothingPartial(const fs::path& dir, const fs::path& reference, const std::string& when) {
  if (!fs::exists(dir)) return;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind('.', 0) == 0) {
      EXPECT_NE(name.find(".tmp-"), std::string::npos) << when << ": stray file " << name;
      continue;
    }
    ASSERT_NE(std::find(kOutputs.begin(), kOutputs.end(), name), kOutputs.end())
        << when << ": unexpected file " << name;
    EXPECT_TRUE(Slurp(entry.path()) == Slurp(reference / name)) << when << ": partial " << name;
  }
  if (fs::exists(dir / "summary.json")) {
    for (const std::string& name : kOutputs) {
      EXPECT_TRUE(fs::exists(dir / name)) << when << ": summary.json without " << name;
    }
  }
}

TEST(CliE2EKill, SigkillAtRandomMomentsLeavesNoPartialOutput) {
  const fs::path base = testing::ScratchPath("kill");
  fs::remove_all(base);
  const fs::path reference = base / "reference";
  const auto start = std::chrono::steady_clock::now();
  // 1 when the demo's 10m expectation fails at this size: still a whole run.
  const int whole = Wait(StartRun(reference));
  ASSERT_TRUE(whole == 0 || whole == 1) << whole;
  const auto full = std::chrono::steady_clock::now() - start;
  for (const std::string& name : kOutputs) ASSERT_TRUE(fs::exists(reference / name)) << name;

  // Fixed seed: a failure names a moment that can be replayed.
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> fraction(0.2, 1.05);
  const fs::path dir = base / "killed";
  for (int i = 0; i < 5; ++i) {
    const double f = fraction(rng);
    const pid_t pid = StartRun(dir);
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::duration_cast<std::chrono::microseconds>(full * f));
    ::kill(pid, SIGKILL);
    Wait(pid);
    ExpectNothingPartial(dir, reference, "killed at " + std::to_string(f) + " of a run");
  }
  // Kills that surely land mid-write: as soon as a temporary file appears.
  int caught_writing = 0;
  for (int i = 0; i < 3; ++i) {
    const pid_t pid = StartRun(dir);
    ASSERT_GT(pid, 0);
    bool writing = false;
    std::error_code ec;  // the directory may not exist yet
    while (!writing && ::waitpid(pid, nullptr, WNOHANG) == 0) {
      for (const auto& entry : fs::directory_iterator(dir, ec)) {
        writing |= entry.path().filename().string().find(".tmp-") != std::string::npos;
      }
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    caught_writing += writing;
    ExpectNothingPartial(dir, reference, "killed while writing");
  }
  EXPECT_GT(caught_writing, 0) << "no kill landed while an output was being written";
  // A whole run into the same directory afterwards leaves exactly the outputs.
  EXPECT_EQ(Wait(StartRun(dir)), whole);
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "stale temporary file " << name;
  }
  for (const std::string& name : kOutputs) {
    EXPECT_TRUE(Slurp(dir / name) == Slurp(reference / name)) << name;
  }
  fs::remove_all(base);
}

}  // namespace
}  // namespace mpsim
