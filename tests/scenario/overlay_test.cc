// --overlay FILE (scenario/overlay.h, docs/scenarios.md "Overlays"): the
// merge rules, pools merged by name, distributions replaced whole, --set
// after the overlay, and errors that name the overlay's own text.
#include "scenario/overlay.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "api/time.h"
#include "scenario/loader.h"
#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

// Two pools, a lognormal nodeReady, two fixes and a capacity per zone: one
// key of each kind the merge treats apart.
const char* kOverlayBase = R"(apiVersion: mpsim/v1
kind: Scenario
metadata: {name: base}
spec:
  horizon: 1h
  controller:
    maxConcurrentReconciles: 7
    fixes: [pr14234-nil-guards, pr14030-initialization-provisioned]
  workloadCluster:
    nodeRegistration: {dist: constant, value: 10s}
    nodeReady: {dist: lognormal, median: 15s, p99: 40s}
  machinePools:
    - name: mp-0
      replicas: 2
      provider: {test: {}}
    - name: mp-1
      replicas: 3
      provider:
        asg:
          zones: [us-east-1a, us-east-1b]
          capacity: {us-east-1a: 10, us-east-1b: 20}
)";

std::string OverlayFile(const std::string& name, const std::string& text) {
  const std::string path = testing::ScratchPath("overlay_" + name + ".yaml").string();
  std::ofstream(path) << text;
  return path;
}

std::string OverlayErrorText(const std::vector<ScenarioError>& errors) {
  std::string all;
  for (const ScenarioError& e : errors) all += e.String() + "\n";
  return all;
}

proto::Scenario OverlaidOk(const std::string& overlay_text,
                           const std::vector<std::string>& sets = {}) {
  const std::string overlay = OverlayFile("ok", overlay_text);
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_TRUE(LoadScenarioFromString(kOverlayBase, "base.yaml", {sets, overlay}, &sc, &errors))
      << OverlayErrorText(errors);
  return sc;
}

std::vector<ScenarioError> OverlaidFails(const std::string& name, const std::string& overlay_text,
                                         std::string* path) {
  *path = OverlayFile(name, overlay_text);
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_FALSE(LoadScenarioFromString(kOverlayBase, "base.yaml", {{}, *path}, &sc, &errors));
  EXPECT_FALSE(errors.empty());
  return errors;
}

TEST(OverlayMerge, MappingsMergeKeyByKey) {
  const proto::Scenario sc = OverlaidOk("spec:\n  controller: {syncPeriod: 5m}\n");
  EXPECT_EQ(sc.spec().controller().sync_period(), 5 * kMinute);
  // The scenario's own sibling keys stay.
  EXPECT_EQ(sc.spec().controller().max_concurrent_reconciles(), 7);
  EXPECT_EQ(sc.spec().controller().fixes_size(), 2);
  EXPECT_EQ(sc.spec().horizon(), kHour);
}

TEST(OverlayMerge, ADistributionNamingDistReplacesTheWholeValue) {
  // Merged key by key, the lognormal's median and p99 would stay beside
  // `value`, which the distribution check rejects.
  const proto::Scenario sc =
      OverlaidOk("spec:\n  workloadCluster:\n    nodeReady: {dist: constant, value: 5s}\n");
  const proto::Distribution& d = sc.spec().workload_cluster().node_ready();
  EXPECT_EQ(d.dist(), "constant");
  EXPECT_EQ(d.value(), 5 * kSecond);
  EXPECT_FALSE(d.has_median());
  EXPECT_FALSE(d.has_p99());
  // The sibling distribution is the scenario's.
  EXPECT_EQ(sc.spec().workload_cluster().node_registration().value(), 10 * kSecond);
}

TEST(OverlayMerge, ADistributionWithoutDistMergesIntoTheScenarios) {
  const proto::Scenario sc = OverlaidOk("spec:\n  workloadCluster:\n    nodeReady: {p99: 60s}\n");
  const proto::Distribution& d = sc.spec().workload_cluster().node_ready();
  EXPECT_EQ(d.dist(), "lognormal");
  EXPECT_EQ(d.median(), 15 * kSecond);
  EXPECT_EQ(d.p99(), 60 * kSecond);
}

TEST(OverlayMerge, ListsReplaceWhole) {
  const proto::Scenario sc = OverlaidOk("spec:\n  controller: {fixes: [pr14234-nil-guards]}\n");
  ASSERT_EQ(sc.spec().controller().fixes_size(), 1);
  EXPECT_EQ(sc.spec().controller().fixes(0), "pr14234-nil-guards");
}

TEST(OverlayMerge, PoolsMergeIntoThePoolOfTheirName) {
  const proto::Scenario sc = OverlaidOk(
      "spec:\n  machinePools:\n"
      "    - name: mp-1\n"
      "      provider: {asg: {launchDelay: {dist: constant, value: 30s}, capacity: {us-east-1b: "
      "5}}}\n");
  ASSERT_EQ(sc.spec().machine_pools_size(), 2);
  const proto::MachinePoolSpec& mp0 = sc.spec().machine_pools(0);
  const proto::MachinePoolSpec& mp1 = sc.spec().machine_pools(1);
  EXPECT_EQ(mp0.replicas(), 2);
  EXPECT_TRUE(mp0.has_test());
  EXPECT_EQ(mp1.name(), "mp-1");
  EXPECT_EQ(mp1.replicas(), 3);
  EXPECT_EQ(mp1.asg().launch_delay().dist(), "constant");
  EXPECT_EQ(mp1.asg().launch_delay().value(), 30 * kSecond);
  EXPECT_EQ(mp1.asg().zones_size(), 2);
  // A map merges by key: one zone changed, the other kept.
  EXPECT_EQ(mp1.asg().capacity().at("us-east-1a"), 10);
  EXPECT_EQ(mp1.asg().capacity().at("us-east-1b"), 5);
}

TEST(OverlayMerge, SetAppliesAfterTheOverlay) {
  const proto::Scenario sc = OverlaidOk("spec:\n  horizon: 2h\n  seed: 9\n", {"spec.horizon=3h"});
  EXPECT_EQ(sc.spec().horizon(), 3 * kHour);
  EXPECT_EQ(sc.spec().seed(), 9u);
}

TEST(OverlayMerge, AnEmptyValueOverAMappingChangesNothing) {
  const proto::Scenario sc = OverlaidOk("spec:\n  controller:\n");
  EXPECT_EQ(sc.spec().controller().max_concurrent_reconciles(), 7);
}

TEST(OverlayErrors, AnUnknownKeyNamesTheOverlaysLineAndColumn) {
  std::string path;
  const std::vector<ScenarioError> errors =
      OverlaidFails("unknown", "spec:\n  workloadCluster:\n    nodeReddy: {p99: 60s}\n", &path);
  ASSERT_EQ(errors.size(), 1u) << OverlayErrorText(errors);
  EXPECT_EQ(errors[0].file, path);
  EXPECT_EQ(errors[0].line, 3);
  EXPECT_EQ(errors[0].column, 5);
  EXPECT_EQ(errors[0].key, "spec.workloadCluster.nodeReddy");
  EXPECT_NE(errors[0].message.find("did you mean \"nodeReady\""), std::string::npos);
}

TEST(OverlayErrors, ABadValueInAPoolNamesTheOverlayAndTheScenariosIndex) {
  std::string path;
  // mp-1 is the scenario's second pool, the overlay's first.
  const std::vector<ScenarioError> errors = OverlaidFails(
      "bad_value", "spec:\n  machinePools:\n    - name: mp-1\n      replicas: x\n", &path);
  ASSERT_EQ(errors.size(), 1u) << OverlayErrorText(errors);
  EXPECT_EQ(errors[0].file, path);
  EXPECT_EQ(errors[0].line, 4);
  EXPECT_EQ(errors[0].column, 7);
  EXPECT_EQ(errors[0].key, "spec.machinePools[1].replicas");
}

TEST(OverlayErrors, TheScenariosOwnTextKeepsItsPosition) {
  // The scenario's bad key is reported at base.yaml's line, the overlay's at its own.
  const std::string bad_base = std::string(kOverlayBase) + "  horizon2: 1h\n";
  const std::string overlay = OverlayFile("both", "spec:\n  seed: x\n");
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_FALSE(LoadScenarioFromString(bad_base, "base.yaml", {{}, overlay}, &sc, &errors));
  ASSERT_EQ(errors.size(), 2u) << OverlayErrorText(errors);
  EXPECT_EQ(errors[0].file, "base.yaml");
  EXPECT_EQ(errors[0].line, 22);
  EXPECT_EQ(errors[0].column, 3);
  EXPECT_EQ(errors[0].key, "spec.horizon2");
  EXPECT_EQ(errors[1].file, overlay);
  EXPECT_EQ(errors[1].line, 2);
  EXPECT_EQ(errors[1].key, "spec.seed");
}

TEST(OverlayErrors, APoolTheScenarioLacksIsNamed) {
  std::string path;
  const std::vector<ScenarioError> errors =
      OverlaidFails("no_pool", "spec:\n  machinePools:\n    - {name: mp-9, replicas: 1}\n", &path);
  ASSERT_EQ(errors.size(), 1u) << OverlayErrorText(errors);
  EXPECT_EQ(errors[0].file, path);
  EXPECT_EQ(errors[0].line, 3);
  EXPECT_EQ(errors[0].column, 14);
  EXPECT_NE(errors[0].message.find("no pool \"mp-9\""), std::string::npos) << errors[0].message;
}

TEST(OverlayErrors, APoolWithoutANameIsAnError) {
  std::string path;
  const std::vector<ScenarioError> errors =
      OverlaidFails("no_name", "spec:\n  machinePools:\n    - {replicas: 1}\n", &path);
  ASSERT_EQ(errors.size(), 1u) << OverlayErrorText(errors);
  EXPECT_EQ(errors[0].file, path);
  EXPECT_EQ(errors[0].line, 3);
  EXPECT_NE(errors[0].message.find("name"), std::string::npos) << errors[0].message;
}

TEST(OverlayErrors, OnlySpecAtTheTop) {
  std::string path;
  const std::vector<ScenarioError> errors =
      OverlaidFails("top", "spec: {seed: 2}\nmetadata: {name: x}\n", &path);
  ASSERT_EQ(errors.size(), 1u) << OverlayErrorText(errors);
  EXPECT_EQ(errors[0].file, path);
  EXPECT_EQ(errors[0].line, 2);
  EXPECT_EQ(errors[0].column, 1);
  EXPECT_NE(errors[0].message.find("only spec"), std::string::npos) << errors[0].message;
  EXPECT_NE(errors[0].message.find("\"metadata\""), std::string::npos) << errors[0].message;
}

TEST(OverlayErrors, ASecondSpecIsADuplicateKey) {
  std::string path;
  const std::vector<ScenarioError> errors =
      OverlaidFails("twice", "spec: {seed: 2}\nspec: {seed: 3}\n", &path);
  ASSERT_EQ(errors.size(), 1u) << OverlayErrorText(errors);
  EXPECT_EQ(errors[0].file, path);
  EXPECT_EQ(errors[0].line, 2);
  EXPECT_EQ(errors[0].message, "duplicate key \"spec\"");
}

TEST(OverlayErrors, EmptyMissingAndBrokenOverlays) {
  std::string path;
  std::vector<ScenarioError> errors = OverlaidFails("empty", "# nothing\n", &path);
  EXPECT_EQ(errors[0].file, path);
  EXPECT_NE(errors[0].message.find("the overlay is empty"), std::string::npos);

  errors = OverlaidFails("binary", std::string("spec: {seed: 1}\n\x01"), &path);
  EXPECT_EQ(errors[0].file, path);
  EXPECT_NE(errors[0].message.find("cannot appear in an overlay"), std::string::npos);

  errors = OverlaidFails("syntax", "spec: {seed: 1\n", &path);
  EXPECT_EQ(errors[0].file, path);
  EXPECT_NE(errors[0].message.find("YAML syntax error"), std::string::npos);

  proto::Scenario sc;
  errors.clear();
  const std::string missing = testing::ScratchPath("overlay_missing.yaml").string();
  EXPECT_FALSE(LoadScenarioFromString(kOverlayBase, "base.yaml", {{}, missing}, &sc, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].file, missing);
  EXPECT_NE(errors[0].message.find("cannot open the overlay"), std::string::npos);
}

TEST(OverlayText, TheMergedTextLoadsAsTheOverlaidScenario) {
  const std::string overlay = OverlayFile("text", "spec:\n  horizon: 2h\n");
  std::string text;
  std::vector<ScenarioError> errors;
  ASSERT_TRUE(OverlaidScenarioText(kOverlayBase, "base.yaml", overlay, &text, &errors))
      << OverlayErrorText(errors);
  proto::Scenario sc;
  ASSERT_TRUE(LoadScenarioFromString(text, "merged.yaml", {}, &sc, &errors))
      << OverlayErrorText(errors);
  EXPECT_EQ(sc.spec().horizon(), 2 * kHour);
  EXPECT_EQ(sc.spec().machine_pools_size(), 2);
}

}  // namespace
}  // namespace mpsim
