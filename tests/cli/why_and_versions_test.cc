// Issue 48, items 9 and 10, end to end with the real binary: why a
// controller fails (summary.json's last_errors, the printed summary,
// --explain, and `mpsim validate`'s warning for a setting that can never
// converge), and the version rows of an upgrade's timeline.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Mpsim;
using testing::Ran;
using testing::Slurp;
using testing::Src;

constexpr const char* kZoneError = "needs exactly one failure domain (zone), got 2";

fs::path WhyDir(const std::string& name) {
  fs::path d = testing::ScratchPath("why_" + name);
  fs::remove_all(d);
  return d;
}

TEST(WhyFailing, SummaryJsonCarriesTheControllersLastError) {
  const fs::path d = WhyDir("json");
  Ran r =
      Mpsim("run " + Src("scenarios/gcp/two-zones-rejected.yaml") + " --quiet --out " + d.string());
  ASSERT_EQ(r.status, 0);
  const auto pool = nlohmann::json::parse(Slurp(d / "summary.json"))["pools"][0];
  ASSERT_TRUE(pool.contains("last_errors")) << pool.dump();
  const auto& errors = pool["last_errors"];
  // In the order of their first failure: core's MachinePool controller once,
  // before its cache has the Cluster; then CAPG's for good.
  ASSERT_EQ(errors.size(), 2u) << errors.dump();
  EXPECT_EQ(errors[0]["controller"], "machinepool");
  EXPECT_EQ(errors[0]["count"], 1);
  const auto& e = errors[1];
  EXPECT_EQ(e["controller"], "gcpmachinepool");
  EXPECT_NE(e["message"].get<std::string>().find(kZoneError), std::string::npos) << e.dump();
  // Every reconcile after the bootstrap data fails, with backoff, for 20 minutes.
  EXPECT_GT(e["count"].get<uint64_t>(), 5u);
  EXPECT_GT(e["first_time_s"].get<double>(), 0);
  EXPECT_GT(e["last_time_s"].get<double>(), e["first_time_s"].get<double>());
  EXPECT_LE(e["last_time_s"].get<double>(), 1200);
}

// With no informer lag core's controller finds the Cluster at once, and
// nothing else fails.
TEST(WhyFailing, APoolWithoutFailuresHasAnEmptyList) {
  const fs::path d = WhyDir("healthy");
  ASSERT_EQ(
      Mpsim("run " + Src("tests/data/reports/exact-timing.yaml") + " --quiet --out " + d.string())
          .status,
      0);
  const auto pool = nlohmann::json::parse(Slurp(d / "summary.json"))["pools"][0];
  ASSERT_TRUE(pool.contains("last_errors"));
  EXPECT_TRUE(pool["last_errors"].empty()) << pool["last_errors"].dump();
}

TEST(WhyFailing, PrintedSummaryAndExplainNameIt) {
  const fs::path d = WhyDir("printed");
  Ran r = Mpsim("run " + Src("scenarios/gcp/two-zones-rejected.yaml") + " --explain mp-0 --out " +
                d.string());
  ASSERT_EQ(r.status, 0);
  const std::regex line(
      "\n  gcpmachinepool: [0-9]+ failed reconciles, [0-9.]+s to [0-9.]+s; "
      "last error: GCPMachinePool mp-0 needs exactly one failure domain");
  auto lines = std::sregex_iterator(r.out.begin(), r.out.end(), line);
  EXPECT_EQ(std::distance(lines, std::sregex_iterator()), 2) << "summary and --explain:\n" << r.out;
}

TEST(WhyFailing, ValidateWarnsWithThePositionAndExitsZero) {
  const std::string file = Src("scenarios/gcp/two-zones-rejected.yaml");
  Ran r = Mpsim("validate " + file, true);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(
      r.out.find("warning: " + file +
                 ":15:15: spec.machinePools[0].provider.mig.zones: GCPMachinePool " + kZoneError),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(file + ": ok"), std::string::npos) << r.out;
  // One zone: nothing to warn about.
  Ran ok = Mpsim("validate " + Src("scenarios/gcp/upgrade-proactive.yaml"), true);
  EXPECT_EQ(ok.status, 0);
  EXPECT_EQ(ok.out.find("warning:"), std::string::npos) << ok.out;
}

TEST(VersionRows, AnUpgradesTimelineShowsEveryVersion) {
  const fs::path d = WhyDir("upgrade");
  ASSERT_EQ(
      Mpsim("run " + Src("scenarios/core/upgrade-versions.yaml") + " --quiet --out " + d.string())
          .status,
      0);
  const std::string t = Slurp(d / "timeline.csv");
  EXPECT_NE(t.find("\n0.000000,MachinePool,mp-0,spec.version,,v1.30.0\n"), std::string::npos);
  EXPECT_NE(t.find(",MachinePool,mp-0,spec.version,v1.30.0,v1.31.0\n"), std::string::npos);
  EXPECT_NE(t.find(",kubeletVersion,,v1.30.0\n"), std::string::npos);
  EXPECT_NE(t.find(",kubeletVersion,,v1.31.0\n"), std::string::npos);
  EXPECT_NE(t.find(",MachinePool,mp-0,upToDateReplicas,3,0\n"), std::string::npos);
  // The last count is the whole pool on the new version.
  const size_t last = t.rfind(",MachinePool,mp-0,upToDateReplicas,");
  ASSERT_NE(last, std::string::npos);
  EXPECT_EQ(t.substr(t.find('\n', last) - 2, 2), ",3") << t.substr(last, 60);
}

}  // namespace
}  // namespace mpsim
