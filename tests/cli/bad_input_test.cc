// Every bad input a user can give the mpsim binary (broken scenario files,
// paths that are not files, bad --set, --seed and commands): exit status 2
// and clear "error:" lines, never a crash, an abort or a hang.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Src;

struct CliResult {
  int status;       // exit status; -1 when killed by a signal (a crash, or the timeout)
  std::string out;  // stdout and stderr
};

// Runs mpsim with a time limit, so that a hang fails the test instead of the suite.
CliResult RunMpsim(const std::string& args) {
  const std::string cmd = "timeout -s KILL 60 " + std::string(MPSIM_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  const int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return {code == 137 ? -1 : code, out};
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Exit 2, and every line of output is an error message of ours.
void ExpectCleanError(const CliResult& r, const std::string& what) {
  EXPECT_EQ(r.status, 2) << what << "\n" << r.out;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_FALSE(lines.empty()) << what << ": no message";
  for (const std::string& line : lines) {
    EXPECT_EQ(line.rfind("error: ", 0), 0u) << what << ": " << line;
  }
  for (const char* bad : {"terminate called", "Aborted", "internal error in mpsim", "Sanitizer"}) {
    EXPECT_EQ(r.out.find(bad), std::string::npos) << what << ": " << r.out;
  }
}

fs::path Temp(const std::string& name) {
  fs::path p = testing::ScratchPath("bad_" + name);
  fs::remove_all(p);
  return p;
}

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

TEST(CliE2EBadInput, EveryBrokenScenarioFileNamesItsPosition) {
  const fs::path out = Temp("corpus_out");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(Src("tests/data/bad"))) {
    if (entry.path().extension() != ".yaml") continue;
    ++files;
    const std::string path = entry.path().string();
    std::ifstream in(path, std::ios::binary);
    std::string expect_line, at_line;
    std::getline(in, expect_line);
    std::getline(in, at_line);
    const std::string prefix = "error: " + path + ":" + at_line.substr(6) + ": ";
    const std::vector<std::string> commands = {"validate " + Quoted(path),
                                               "run " + Quoted(path) + " --out " + out.string()};
    for (const std::string& cmd : commands) {
      const CliResult r = RunMpsim(cmd);
      ExpectCleanError(r, cmd);
      EXPECT_EQ(r.out.rfind(prefix, 0), 0u) << cmd << "\n" << r.out;
      EXPECT_NE(Lines(r.out)[0].find(expect_line.substr(10)), std::string::npos) << r.out;
    }
  }
  EXPECT_GE(files, 70);
  EXPECT_FALSE(fs::exists(out / "summary.json"));
}

TEST(CliE2EBadInput, DirectoryInsteadOfAFile) {
  const fs::path dir = Temp("a_dir");
  fs::create_directories(dir);
  for (const std::string cmd : {"run ", "validate "}) {
    CliResult r = RunMpsim(cmd + dir.string());
    ExpectCleanError(r, cmd + "a directory");
    EXPECT_NE(r.out.find("is a directory; expected a scenario file"), std::string::npos) << r.out;
  }
}

TEST(CliE2EBadInput, UnreadableFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root, which reads any file";
  const fs::path file = Temp("unreadable.yaml");
  fs::copy_file(Src("scenarios/demo.yaml"), file);
  fs::permissions(file, fs::perms::none);
  CliResult r = RunMpsim("run " + file.string());
  ExpectCleanError(r, "unreadable file");
  EXPECT_NE(r.out.find("cannot read the scenario"), std::string::npos) << r.out;
}

TEST(CliE2EBadInput, MissingFileAndNoFile) {
  ExpectCleanError(RunMpsim("run /nonexistent/scenario.yaml"), "missing file");
  EXPECT_EQ(RunMpsim("validate").status, 2);
  EXPECT_EQ(RunMpsim("run").status, 2);
}

TEST(CliE2EBadInput, BadSetPathsAndValues) {
  const std::string demo = Src("scenarios/demo.yaml");
  const fs::path out = Temp("set_out");
  for (const std::string set :
       {"spec.nope=3",
        "horizon",
        "=",
        "=5",
        "spec.horizon=5x",
        "spec.horizon=",
        "spec.horizon=-1s",
        "spec.machinePools[7].replicas=3",
        "spec.machinePools[x].replicas=3",
        "spec.machinePools[0].replicas=-3",
        "spec.machinePools[0].replicas=1e99",
        "spec.machinePools[0].replicas=100001",
        "spec.machinePools[0]=[[[[",
        "spec.machinePools[0].provider.test.launchDelay={dist: lognormal, median: 9s, p99: 1s}",
        "spec.limits.maxEvents=0",
        "spec.limits.maxEvents=-5",
        "spec..horizon=1h",
        "spec.machinePools[0].replicas[0]=1",
        "metadata.name=../x",
        "spec.seed=abc"}) {
    CliResult r = RunMpsim("run " + demo + " --out " + out.string() + " --set " + Quoted(set));
    ExpectCleanError(r, "--set " + set);
    EXPECT_EQ(r.out.rfind("error: --set " + set + ": ", 0), 0u) << r.out;
  }
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliE2EBadInput, SeedThatIsNoNumber) {
  const std::string demo = Src("scenarios/demo.yaml");
  for (const std::string seed : {"abc", "-1", "99999999999999999999999", "1.5", "", "0x10", " 7"}) {
    CliResult r = RunMpsim("run " + demo + " --out /dev/null --seed " + Quoted(seed));
    EXPECT_EQ(r.status, 2) << "--seed " << seed << "\n" << r.out;
    EXPECT_NE(r.out.find("--seed"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("terminate called"), std::string::npos) << r.out;
  }
}

TEST(CliE2EBadInput, UnknownCommandSuggestsOne) {
  CliResult r = RunMpsim("frobnicate x.yaml");
  ExpectCleanError(r, "frobnicate");
  EXPECT_NE(r.out.find("unknown command \"frobnicate\""), std::string::npos) << r.out;
  r = RunMpsim("rnu x.yaml");
  ExpectCleanError(r, "rnu");
  EXPECT_NE(r.out.find("did you mean \"run\"?"), std::string::npos) << r.out;
  EXPECT_EQ(RunMpsim("--no-such-flag").status, 2);
}

TEST(CliE2EBadInput, OutputDirectoryThatIsAFile) {
  const fs::path file = Temp("out_is_a_file");
  std::ofstream(file) << "not a directory\n";
  CliResult r = RunMpsim("run " + Src("scenarios/demo.yaml") + " --quiet --out " + file.string());
  ExpectCleanError(r, "--out FILE");
}

TEST(CliE2EBadInput, BudgetsStopARunWithOneErrorAndNoOutput) {
  const fs::path out = Temp("budget_out");
  const std::string demo = Src("scenarios/demo.yaml");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"spec.limits.maxEvents=50", "raise it with --set spec.limits.maxEvents=100"},
      {"spec.limits.maxMemoryMiB=1", "over its budget spec.limits.maxMemoryMiB (1)"},
      {"spec.limits.maxEventsPerInstant=1", "zero-delay event loop"}};
  for (const auto& [set, want] : cases) {
    CliResult r = RunMpsim("run " + demo + " --out " + out.string() + " --set " + set);
    ExpectCleanError(r, set);
    EXPECT_EQ(Lines(r.out).size(), 1u) << r.out;
    EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(out / "summary.json")) << set;
  }
}

TEST(CliE2EBadInput, CheckOverTheWholeCorpus) {
  CliResult r = RunMpsim("check " + Src("tests/data/bad"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(r.out.find("terminate called"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mpsim
