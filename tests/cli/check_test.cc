// `mpsim check` as CI drives it: the scenario library passes, a failing
// expectation exits 1 and names the replay command, JUnit XML is written,
// bad input exits 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Mpsim;
using testing::Src;

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + 1)) ++n;
  return n;
}

fs::path TempDir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("mpsim-check-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// The demo with one expectation that cannot hold (Running within 1s).
fs::path FailingScenario() {
  std::ifstream in(Src("scenarios/demo.yaml"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  text += "    - {pool: mp-0, phase: Running, within: 1s}\n";
  fs::path p = TempDir("failing") / "failing.yaml";
  std::ofstream(p) << text;
  return p;
}

// Issue 4's scenarios: phases, the 30 s requeue, a missing providerID that
// never converges, deletion, and D1 with and without the upstream fix.
TEST(ScenarioCheck, CoreScenarioLibraryPasses) {
  auto r = Mpsim("check " + Src("scenarios/core"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Count(r.out, "FAIL"), 0u) << r.out;
  for (const char* f : {"phases", "missing-providerid", "deletion", "d1-failure-reason", "d1-fixed",
                        "upgrade-versions"}) {
    EXPECT_NE(r.out.find(std::string("ok   ") + Src("scenarios/core/") + f + ".yaml"),
              std::string::npos)
        << f << "\n"
        << r.out;
  }
}

// Issue 10: `mpsim check scenarios/` is part of the suite; every scenario
// the library holds passes.
TEST(ScenarioCheck, WholeLibraryPasses) {
  auto r = Mpsim("check " + Src("scenarios"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Count(r.out, "FAIL"), 0u) << r.out;
}

// The storms and edge cases of issue 10 that the test provider can express.
TEST(ScenarioCheck, EdgeAndStormLibraryPasses) {
  auto r = Mpsim("check " + Src("scenarios/edge") + " " + Src("scenarios/storms"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Count(r.out, "FAIL"), 0u) << r.out;
  EXPECT_GE(Count(r.out, "ok   "), 7u) << r.out;
}

TEST(ScenarioCheck, FailingExpectationExitsOneAndNamesTheReplay) {
  const fs::path f = FailingScenario();
  auto r = Mpsim("check " + f.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL " + f.string() + ": mp-0 reaches Running within 1s"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("replay: mpsim run " + f.string() + " --seed 1 (mpsim "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(commit "), std::string::npos) << r.out;
}

TEST(ScenarioCheck, SeedsRunEachExpectationOnEverySeed) {
  auto r = Mpsim("check " + Src("scenarios/demo.yaml") + " --seeds 3");
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* s : {"[seed 1]", "[seed 2]", "[seed 3]"}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  }
  EXPECT_NE(r.out.find("3 expectation(s) passed, 0 failed"), std::string::npos) << r.out;
}

TEST(ScenarioCheck, JUnitHasOneSuitePerFileAndOneCasePerExpectation) {
  const fs::path failing = FailingScenario();
  const fs::path xml = TempDir("junit") / "report.xml";
  auto r = Mpsim("check " + Src("scenarios/demo.yaml") + " " + failing.string() + " --junit " +
                 xml.string());
  EXPECT_EQ(r.status, 1);
  std::ifstream in(xml);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string x = ss.str();
  EXPECT_EQ(Count(x, "<testsuite "), 2u) << x;
  EXPECT_EQ(Count(x, "<testcase "), 3u) << x;  // demo: 1, failing: 2
  EXPECT_EQ(Count(x, "<failure "), 1u) << x;
  EXPECT_NE(x.find("replay: mpsim run"), std::string::npos) << x;
  // The attributes the Ant/Jenkins JUnit schema requires of each element.
  std::regex suite(
      R"(<testsuite name="[^"]+" tests="\d+" failures="\d+" errors="\d+" skipped="\d+" time="[0-9.]+">)");
  std::regex tcase(R"(<testcase classname="[^"]+" name="[^"]+" time="[0-9.]+")");
  EXPECT_EQ(std::distance(std::sregex_iterator(x.begin(), x.end(), suite), std::sregex_iterator()),
            2);
  EXPECT_EQ(std::distance(std::sregex_iterator(x.begin(), x.end(), tcase), std::sregex_iterator()),
            3);
  EXPECT_EQ(x.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 0), 0u);
}

// Changing the controller's world in a known way (every providerID missing)
// must make the phase scenario fail and print a replay that carries the change.
TEST(ScenarioCheck, MutatedBehaviourFailsWithTheReplayCommand) {
  const std::string set = "spec.workloadCluster.providerID.faults.missing=1";
  auto r = Mpsim("check " + Src("scenarios/core/phases.yaml") + " --set " + set);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL " + Src("scenarios/core/phases.yaml") + ": mp-0 converges"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("replay: mpsim run " + Src("scenarios/core/phases.yaml") +
                       " --seed 1 --set '" + set + "'"),
            std::string::npos)
      << r.out;
}

TEST(ScenarioCheck, GoldenTimelineIsWrittenThenGuardsBehaviour) {
  const fs::path dir = TempDir("golden");
  fs::copy_file(Src("scenarios/core/phases.yaml"), dir / "phases.yaml");
  const std::string file = (dir / "phases.yaml").string();
  auto w = Mpsim("check " + file + " --update-golden");
  EXPECT_EQ(w.status, 0) << w.out;
  ASSERT_TRUE(fs::exists(dir / "phases.golden.csv")) << w.out;
  EXPECT_NE(Mpsim("check " + file).out.find("timeline matches"), std::string::npos);
  EXPECT_EQ(Mpsim("check " + file).status, 0);
  {  // a behaviour change: the golden says otherwise on line 2
    std::ifstream in(dir / "phases.golden.csv");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string g = ss.str();
    const size_t eol = g.find('\n');
    g.insert(eol + 1, "0.000000,MachinePool,mp-0,phase,,Failed\n");
    std::ofstream(dir / "phases.golden.csv") << g;
  }
  auto r = Mpsim("check " + file);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("line 2: - 0.000000,MachinePool,mp-0,phase,,Failed + "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("--update-golden"), std::string::npos) << r.out;
}

TEST(ScenarioCheck, BadScenarioOrMissingPathExitsTwo) {
  EXPECT_EQ(Mpsim("check " + Src("tests/data/bad/empty-file.yaml")).status, 2);
  EXPECT_EQ(Mpsim("check /nonexistent/dir").status, 2);
  EXPECT_EQ(Mpsim("check " + Src("scenarios/demo.yaml") + " --set spec.horizon=5x").status, 2);
}

}  // namespace
}  // namespace mpsim
