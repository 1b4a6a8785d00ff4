// `mpsim calibrate` and `mpsim import` end to end through the real binary,
// on the fixtures of tests/data/calibrate (gen.py there).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
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

std::string CalDumps(const std::string& cluster) {
  const std::string d = testing::Src("tests/data/calibrate/" + cluster + "/");
  return d + "nodes.json " + d + "instances.json " + d + "machinepools.json";
}

TEST(CalibrateCli, WritesTheOverlayAndReportsEachDelay) {
  const fs::path out = testing::ScratchPath("cal_fitted.yaml");
  Ran r = Mpsim("calibrate " + CalDumps("lognormal") + " --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("nodeRegistration (instance launch -> Node registered): 1000 samples"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("<- best fit"), std::string::npos);
  const std::string overlay = testing::Slurp(out);
  EXPECT_EQ(overlay.rfind("# Fitted by mpsim calibrate", 0), 0u) << overlay;
  EXPECT_NE(overlay.find("nodeRegistration: {dist: lognormal"), std::string::npos) << overlay;
}

// Issue 53's workflow end to end: the fitted overlay is what `run --overlay`
// reads, and the run then draws Node readiness from the fitted lognormal
// (its median within 10 % of the fixture's 15 s, as gen.py drew it).
TEST(CalibrateCli, TheFittedOverlayRunsUnderRunOverlay) {
  const fs::path overlay = testing::ScratchPath("cal_run_overlay.yaml");
  ASSERT_EQ(Mpsim("calibrate " + CalDumps("lognormal") + " --out " + overlay.string()).status, 0);
  const fs::path out = testing::ScratchPath("cal_run_out");
  Ran r = Mpsim("run " + testing::Src("scenarios/demo.yaml") + " --overlay " + overlay.string() +
                " --quiet --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(fs::exists(out / "summary.json"));
  const std::string text = testing::Slurp(overlay);
  const size_t at = text.find("nodeReady: {dist: lognormal, median: ");
  ASSERT_NE(at, std::string::npos) << text;
  const double median = std::atof(text.c_str() + at + 37);
  EXPECT_NEAR(median, 15.0, 1.5) << text;
}

TEST(CalibrateCli, JsonReportNamesChosenFamilyAndUnusedRows) {
  const fs::path out = testing::ScratchPath("cal_aws.yaml");
  Ran r = Mpsim("calibrate --json " + CalDumps("aws") + " --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["overlay"], out.string());
  const auto& reg = report["delays"][0];
  EXPECT_EQ(reg["key"], "nodeRegistration");
  EXPECT_EQ(reg["samples"], 27);  // gen.py: 30 instances, 2 without a Node, 1 skewed
  EXPECT_EQ(reg["families"].size(), 3u);
  EXPECT_EQ(reg["written"], "lognormal");
  EXPECT_EQ(report["delays"][1]["unused"][0]["why"], "Node never Ready");
  EXPECT_EQ(report["delays"][1]["unused"][0]["count"], 3);
}

TEST(CalibrateCli, BadInputExitsTwoAndWritesNothing) {
  const fs::path bad = testing::ScratchPath("cal_bad_nodes.json");
  std::ofstream(bad) << R"({"kind": "List", "items": [{"kind": "Node", "metadata": )"
                     << R"({"name": "n", "creationTimestamp": "soon"}}]})";
  const fs::path out = testing::ScratchPath("cal_never.yaml");
  Ran r = Mpsim("calibrate " + bad.string() + " --out " + out.string(), /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(bad.string() + ": $.items[0].metadata.creationTimestamp: not a RFC 3339 "
                                      "time"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(out));
  const fs::path pods = testing::ScratchPath("cal_pods.json");
  std::ofstream(pods) << R"({"kind": "List", "items": [{"kind": "Pod"}]})";
  r = Mpsim("calibrate " + pods.string() + " --out " + out.string(), true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("not a dump mpsim reads"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(Mpsim("calibrate " + CalDumps("aws")).status, 2);  // --out is required
}

bool CalIsPng(const fs::path& p) {
  const std::string bytes = testing::Slurp(p);
  return bytes.size() > 8 && bytes.compare(0, 4, "\x89PNG") == 0;
}

TEST(CalibrateCli, PlotWritesAQqPngPerFittedDelay) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 has no matplotlib";
  }
  const fs::path out = testing::ScratchPath("cal_plot/fitted.yaml");
  Ran r = Mpsim("calibrate " + CalDumps("gcp") + " --plot --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* key : {"nodeRegistration", "nodeReady", "ccmDelay"}) {
    EXPECT_TRUE(CalIsPng(out.parent_path() / ("fitted-" + std::string(key) + "-qq.png"))) << key;
  }
}

TEST(CalibrateCli, PlotWithoutMatplotlibExitsThreeWithTheOverlayWritten) {
  const fs::path out = testing::ScratchPath("cal_noplot.yaml");
  // MPSIM_PYTHON pins the one interpreter to try: one without matplotlib.
  const std::string cmd = "MPSIM_PYTHON=/bin/false " + std::string(MPSIM_BINARY) + " calibrate " +
                          CalDumps("gcp") + " --plot --out " + out.string() + " 2>&1 >/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  std::string text;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
  const int st = pclose(p);
  EXPECT_EQ(WEXITSTATUS(st), 3) << text;
  EXPECT_NE(text.find("apt-get install python3-matplotlib"), std::string::npos) << text;
  EXPECT_TRUE(fs::exists(out));
}

TEST(CalibrateCli, ImportedScenarioValidatesAndRuns) {
  for (const std::string cluster : {"aws", "azure", "gcp"}) {
    const fs::path sc = testing::ScratchPath("cal_import_" + cluster + ".yaml");
    Ran r = Mpsim("import " + CalDumps(cluster) + " --out " + sc.string(), true);
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(Mpsim("validate " + sc.string()).status, 0) << cluster;
    const fs::path dir = testing::ScratchPath("cal_run_" + cluster);
    r = Mpsim("run " + sc.string() + " --quiet --out " + dir.string(), true);
    EXPECT_EQ(r.status, 0) << cluster << ": " << r.out;
    EXPECT_TRUE(fs::exists(dir / "summary.json")) << cluster;
  }
}

TEST(CalibrateCli, EveryKindImportsValidatesAndRuns) {
  const fs::path sc = testing::ScratchPath("cal_every_kind.yaml");
  Ran r = Mpsim("import " + testing::Src("tests/data/calibrate/every-kind/machinepools.json") +
                    " --out " + sc.string(),
                true);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Mpsim("validate " + sc.string()).status, 0);
  const fs::path dir = testing::ScratchPath("cal_run_every_kind");
  r = Mpsim("run " + sc.string() + " --json --out " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["pools"].size(), 11u);
}

TEST(CalibrateCli, ImportWithoutMachinePoolsExitsTwo) {
  const fs::path sc = testing::ScratchPath("cal_no_pools.yaml");
  const std::string d = testing::Src("tests/data/calibrate/aws/");
  Ran r = Mpsim("import " + d + "nodes.json --out " + sc.string(), true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("no MachinePool among the files"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(sc));
}

}  // namespace
}  // namespace mpsim
