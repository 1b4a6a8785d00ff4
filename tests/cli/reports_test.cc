// The reports of `mpsim run` end to end with the real binary: --explain,
// the critical path in summary.json, --plot (when /usr/bin/python3 has
// matplotlib) and its failure when no interpreter has it, and `mpsim compare`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Mpsim;
using testing::Ran;
using testing::Slurp;
using testing::Src;

// Per process: other checkouts on the machine run these tests too, in the same /tmp.
fs::path FreshReportDir(const std::string& name) {
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("mpsim_reports_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  return dir;
}

// Removes this process's directories when the tests are done.
class RemoveFreshDirs : public ::testing::Environment {
 public:
  void TearDown() override {
    const std::string prefix = "mpsim_reports_" + std::to_string(::getpid()) + "_";
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(::testing::TempDir(), ec)) {
      if (e.path().filename().string().rfind(prefix, 0) == 0) fs::remove_all(e.path(), ec);
    }
  }
};
const auto* const kRemoveFreshDirs = ::testing::AddGlobalTestEnvironment(new RemoveFreshDirs);

std::string DemoScenarioPath() { return "'" + Src("scenarios/demo.yaml") + "'"; }

TEST(CliE2EReports, ExplainPrintsTheCriticalPath) {
  const fs::path out = FreshReportDir("explain");
  Ran r = Mpsim("run " + DemoScenarioPath() + " --explain mp-0 --out '" + out.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("why pool mp-0 took"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the cloud launching instance"), std::string::npos) << r.out;
  // summary.json carries the same path; its segments add up to the time to converge.
  const nlohmann::json s = nlohmann::json::parse(Slurp(out / "summary.json"));
  const nlohmann::json& pool = s["pools"][0];
  const nlohmann::json& path = pool["critical_path"];
  ASSERT_TRUE(path["converged"].get<bool>());
  double sum = 0, share = 0;
  for (const auto& seg : path["segments"]) {
    sum += seg["duration_s"].get<double>();
    share += seg["share"].get<double>();
  }
  EXPECT_NEAR(sum, pool["time_to_converge_s"].get<double>(), 1e-6);
  EXPECT_NEAR(path["total_s"].get<double>(), pool["time_to_converge_s"].get<double>(), 1e-6);
  EXPECT_NEAR(share, 1.0, 1e-9);
}

// Constant delays (tests/data/reports/constant-delays.yaml): after the
// bootstrap data, the path runs through one instance with launch 30 s,
// registration 40 s, Ready 5 s, and adds up to the time to converge.
TEST(CliE2EReports, CriticalPathOfConstantDelays) {
  const fs::path out = FreshReportDir("constant");
  Ran r = Mpsim("run '" + Src("tests/data/reports/constant-delays.yaml") + "' --quiet --out '" +
                out.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json pool = nlohmann::json::parse(Slurp(out / "summary.json"))["pools"][0];
  const nlohmann::json& segs = pool["critical_path"]["segments"];
  const std::vector<std::pair<std::string, double>> want = {{"bootstrap", -1}, {"create", -1},
                                                            {"launch", 30},    {"register", 40},
                                                            {"node-ready", 5}, {"status", -1}};
  ASSERT_EQ(segs.size(), want.size()) << segs.dump(1);
  double sum = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(segs[i]["kind"], want[i].first) << i;
    if (want[i].second >= 0) {
      EXPECT_NEAR(segs[i]["duration_s"].get<double>(), want[i].second, 1e-9) << i;
    }
    sum += segs[i]["duration_s"].get<double>();
  }
  EXPECT_EQ(segs[2]["object"], segs[3]["object"]);
  EXPECT_NEAR(sum, pool["time_to_converge_s"].get<double>(), 1e-6);
}

// Issue 52: on a run with pods --explain ends with the pool's slowest pod
// (the values are worked out by hand from the timeline in
// tests/app/report/pod_wait_facts_test.cc), pod_waits.json is written, the
// report shows the same lines, and a later run without pods removes the file.
TEST(CliE2EReports, ExplainNamesTheSlowestPodsWait) {
  const fs::path out = FreshReportDir("pods");
  Ran r = Mpsim("run '" + Src("scenarios/autoscaler/burst-100-pods.yaml") +
                "' --seed 1 --quiet --explain mp-0 --out '" + out.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string pod =
      "slowest pod on pool mp-0: pod-96 waited 146.1s: pending from 300.0s, "
      "bound at 446.1s to node mp-0-00012, launched at 310.0s (the autoscaler";
  const std::string cause =
      "s scale-up of mp-0 from 1 to 25 at 310.0s: 96 of 96 pending pods) "
      "and Ready at 446.1s\n";
  EXPECT_NE(r.out.find(pod + "'" + cause), std::string::npos) << r.out;
  EXPECT_GT(r.out.find(pod), r.out.find("why pool mp-0 took")) << r.out;
  ASSERT_TRUE(fs::exists(out / "pod_waits.json"));
  const nlohmann::json w = nlohmann::json::parse(Slurp(out / "pod_waits.json"));
  EXPECT_EQ(w["pools"][0]["node"], "mp-0-00012");
  EXPECT_EQ(w["pending_at_end"], 0);
  ASSERT_EQ(Mpsim("report '" + out.string() + "'").status, 0);
  EXPECT_NE(Slurp(out / "report.html").find(pod + "&#39;" + cause), std::string::npos);
  ASSERT_EQ(Mpsim("run " + DemoScenarioPath() + " --quiet --out '" + out.string() + "'").status, 0);
  EXPECT_FALSE(fs::exists(out / "pod_waits.json"));
}

TEST(CliE2EReports, ExplainOfAnUnknownPoolIsBadInput) {
  Ran r = Mpsim("run " + DemoScenarioPath() + " --explain mp-9 --out '" +
                    FreshReportDir("unknown").string() + "'",
                /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("no pool \"mp-9\""), std::string::npos) << r.out;
}

TEST(CliE2EReports, ExplainOnAwsAndGcp) {
  for (const char* scenario :
       {"scenarios/aws/scale-up-1000-ice.yaml", "scenarios/gcp/scale-up-1000-stockouts.yaml",
        "scenarios/aws/delete-500.yaml"}) {
    const fs::path out = FreshReportDir("cloud");
    Ran r =
        Mpsim("run '" + Src(scenario) + "' --quiet --explain mp-0 --out '" + out.string() + "'");
    EXPECT_NE(r.out.find("why pool mp-0 took"), std::string::npos) << scenario << "\n" << r.out;
    const nlohmann::json s = nlohmann::json::parse(Slurp(out / "summary.json"));
    EXPECT_FALSE(s["pools"][0]["critical_path"]["segments"].empty()) << scenario;
  }
}

// CAPA#4618: the pool's longest wait is the AWSMachinePool controller's
// resync, and --explain says so in plain words, with the upstream issues.
TEST(CliE2EReports, ExplainNamesAWaitForTheResync) {
  const fs::path out = FreshReportDir("resync");
  Ran r = Mpsim("run '" + Src("scenarios/aws/capa-4618-resync-stall.yaml") +
                "' --quiet --explain mp-0 --out '" + out.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("no event or requeue woke the AWSMachinePool controller until its 10 m "
                       "resync (CAPA#4618, cluster-api#4062), which then did: adding instance"),
            std::string::npos)
      << r.out;
  const nlohmann::json s = nlohmann::json::parse(Slurp(out / "summary.json"));
  bool resync = false;
  for (const auto& seg : s["pools"][0]["critical_path"]["segments"]) {
    resync = resync || seg["kind"] == "resync";
  }
  EXPECT_TRUE(resync) << s["pools"][0]["critical_path"];
}

// trace.json: a process per pool with a phase track and a replicas counter,
// a track per instance with its lifecycle, and a controllers process with a
// track per controller.
TEST(CliE2EReports, TraceHasTheExpectedTracks) {
  const fs::path out = FreshReportDir("trace");
  ASSERT_EQ(Mpsim("run " + DemoScenarioPath() + " --quiet --out '" + out.string() + "'").status, 0);
  const nlohmann::json t = nlohmann::json::parse(Slurp(out / "trace.json"));
  std::set<std::string> processes, threads, names;
  int counters = 0, slices = 0;
  for (const auto& e : t["traceEvents"]) {
    const std::string ph = e["ph"];
    ASSERT_TRUE(e.contains("pid")) << e;
    names.insert(e["name"].get<std::string>());
    if (ph == "M" && e["name"] == "process_name") processes.insert(e["args"]["name"]);
    if (ph == "M" && e["name"] == "thread_name") threads.insert(e["args"]["name"]);
    if (ph == "C" && e["name"] == "replicas") {
      ++counters;
      for (const char* k : {"desired", "ready", "available"}) EXPECT_TRUE(e["args"].contains(k));
    }
    if (ph == "X") {
      ++slices;
      EXPECT_GE(e["dur"].get<int64_t>(), 0) << e;
    }
  }
  EXPECT_TRUE(processes.count("MachinePool mp-0"));
  EXPECT_TRUE(processes.count("controllers"));
  for (const char* track : {"phase", "machinepool", "testmachinepool", "mp-0-00000"}) {
    EXPECT_TRUE(threads.count(track)) << track;
  }
  // An instance's lifecycle: the cloud's states, then its Node's, and the match.
  for (const char* name :
       {"Launching", "Running", "Node registered", "Node Ready", "nodeRef matched"}) {
    EXPECT_TRUE(names.count(name)) << name;
  }
  EXPECT_GT(counters, 0);
  EXPECT_GT(slices, 0);
}

bool HasPng(const fs::path& p) {
  const std::string bytes = Slurp(p);
  return bytes.size() > 8 && bytes.compare(0, 4, "\x89PNG") == 0;
}

TEST(CliE2EReports, PlotWritesPngs) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 has no matplotlib";
  }
  const fs::path out = FreshReportDir("plot");
  Ran r = Mpsim("run " + DemoScenarioPath() + " --quiet --plot --out '" + out.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* png : {"replicas.png", "matching-latency.png", "instances.png"}) {
    EXPECT_TRUE(HasPng(out / png)) << png;
  }
}

TEST(CliE2EReports, PlotWithoutMatplotlibSaysWhatToInstall) {
  const fs::path out = FreshReportDir("noplot");
  // MPSIM_PYTHON pins the one interpreter to try: one without matplotlib.
  const std::string cmd = "MPSIM_PYTHON=/bin/false " + std::string(MPSIM_BINARY) + " run " +
                          DemoScenarioPath() + " --quiet --plot --out '" + out.string() + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string text;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
  const int st = pclose(p);
  EXPECT_EQ(WEXITSTATUS(st), 3) << text;
  EXPECT_NE(text.find("/bin/false"), std::string::npos) << text;
  EXPECT_NE(text.find("apt-get install python3-matplotlib"), std::string::npos) << text;
  EXPECT_TRUE(fs::exists(out / "summary.json"));
  EXPECT_TRUE(fs::exists(out / "trace.json"));
}

TEST(CliE2EReports, CompareTwoSeeds) {
  const fs::path a = FreshReportDir("cmp_a"), b = FreshReportDir("cmp_b");
  ASSERT_EQ(
      Mpsim("run " + DemoScenarioPath() + " --quiet --seed 1 --out '" + a.string() + "'").status,
      0);
  ASSERT_EQ(
      Mpsim("run " + DemoScenarioPath() + " --quiet --seed 2 --out '" + b.string() + "'").status,
      0);
  Ran r = Mpsim("compare '" + a.string() + "' '" + (b / "summary.json").string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("time_to_converge_s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("matching_latency_s.p99"), std::string::npos) << r.out;
  Ran j = Mpsim("compare --json '" + a.string() + "' '" + b.string() + "'");
  ASSERT_EQ(j.status, 0) << j.out;
  const nlohmann::json rows = nlohmann::json::parse(j.out)["rows"];
  EXPECT_FALSE(rows.empty());
  EXPECT_EQ(Mpsim("compare '" + a.string() + "' /nonexistent/dir").status, 2);
}

}  // namespace
}  // namespace mpsim
