// The overlay calibrate writes and the scenario import writes: their keys,
// and that the scenario loader takes them.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "app/calibrate/calibration.h"
#include "app/calibrate/import_command.h"
#include "app/calibrate/imported_scenario.h"
#include "app/calibrate/overlay_writer.h"
#include "app/calibrate/read_dumps.h"
#include "scenario/loader.h"

namespace mpsim::calibrate {
namespace {

// A fitted delay whose lognormal has median `median` and p99 `p99` seconds.
DelayCalibration CalFitted(const std::string& key, double median, double p99) {
  DelayCalibration d;
  d.samples.key = key;
  d.fitted = true;
  FamilyResult ln;
  ln.params = {Family::kLognormal, std::log(median), std::log(p99 / median) / 2.3263478740408408};
  ln.median = median;
  ln.p99 = p99;
  d.fit.families = {ln};
  return d;
}

TEST(CalibrateOverlay, WritesTheScenarioKeysAsLognormals) {
  Calibration c;
  c.delays = {CalFitted("nodeRegistration", 40, 120), CalFitted("nodeReady", 15.0004, 40.25),
              CalFitted("ccmDelay", 2, 19)};
  const YAML::Node doc = YAML::Load(OverlayText(c));
  ASSERT_EQ(doc.size(), 1u);  // `spec` only
  const YAML::Node wc = doc["spec"]["workloadCluster"];
  EXPECT_EQ(wc["nodeRegistration"]["dist"].as<std::string>(), "lognormal");
  EXPECT_EQ(wc["nodeRegistration"]["median"].as<std::string>(), "40s");
  EXPECT_EQ(wc["nodeRegistration"]["p99"].as<std::string>(), "2m");
  // To the millisecond: 15.0004 s is 15 s, 40.25 s is 40 s 250 ms.
  EXPECT_EQ(wc["nodeReady"]["median"].as<std::string>(), "15s");
  EXPECT_EQ(wc["nodeReady"]["p99"].as<std::string>(), "40s250ms");
  EXPECT_EQ(wc["providerID"]["setBy"].as<std::string>(), "cloud-controller-manager");
  EXPECT_EQ(wc["providerID"]["ccmDelay"]["p99"].as<std::string>(), "19s");
}

TEST(CalibrateOverlay, LeavesOutWhatWasNotFittedAndLoadsInAScenario) {
  Calibration c;
  c.delays = {CalFitted("nodeRegistration", 40, 120), DelayCalibration{}};
  c.provider_id_by_kubelet = 3;
  const YAML::Node wc = FittedWorkloadCluster(c);
  EXPECT_FALSE(wc["nodeReady"]);
  EXPECT_EQ(wc["providerID"]["setBy"].as<std::string>(), "kubelet");
  YAML::Node sc = YAML::Load(
      "{apiVersion: mpsim/v1, kind: Scenario, metadata: {name: o}, spec: {machinePools: "
      "[{name: mp-0, provider: {test: {}}}]}}");
  sc["spec"]["workloadCluster"] = wc;
  YAML::Emitter out;
  out << sc;
  proto::Scenario loaded;
  std::vector<ScenarioError> errors;
  ASSERT_TRUE(LoadScenarioFromString(out.c_str(), "o.yaml", {}, &loaded, &errors))
      << errors[0].String();
  // 40 s is the median: e^mu with mu of ln seconds.
  EXPECT_EQ(loaded.spec().workload_cluster().node_registration().median(), 40'000'000);
}

Dumps CalReadFixture(const std::string& cluster, const std::vector<std::string>& names) {
  Dumps dumps;
  std::string error;
  std::vector<std::string> files;
  for (const std::string& n : names) {
    files.push_back(std::string(MPSIM_SOURCE_DIR) + "/tests/data/calibrate/" + cluster + "/" + n);
  }
  EXPECT_TRUE(ReadDumps(files, &dumps, &error)) << error;
  return dumps;
}

TEST(CalibrateImport, EveryInfrastructureKindGetsItsBlock) {
  const Dumps dumps = CalReadFixture("every-kind", {"machinepools.json"});
  std::string yaml, error;
  ASSERT_TRUE(ImportedScenario(dumps, Calibrate(dumps), {"kinds", "d"}, &yaml, &error)) << error;
  const YAML::Node pools = YAML::Load(yaml)["spec"]["machinePools"];
  // The table: infrastructureRef.kind -> block (and the keys that select the kind).
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"pool-awsmachinepool", "asg"},
      {"pool-awsmanagedmachinepool", "eks"},
      {"pool-rosamachinepool", "rosa"},
      {"pool-azuremachinepool", "vmss"},
      {"pool-azuremanagedmachinepool", "aks"},
      {"pool-azureasomanagedmachinepool", "aks"},
      {"pool-gcpmachinepool", "mig"},
      {"pool-gcpmanagedmachinepool", "mig"},
      {"pool-ocimachinepool", "oci"},
      {"pool-ocimanagedmachinepool", "oke"},
      {"pool-scalewaymanagedmachinepool", "kapsule"}};
  ASSERT_EQ(pools.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(pools[i]["name"].as<std::string>(), expected[i].first);
    EXPECT_TRUE(pools[i]["provider"][expected[i].second]) << expected[i].first;
    EXPECT_EQ(pools[i]["version"].as<std::string>(), "v1.31.0");
  }
  EXPECT_EQ(pools[5]["provider"]["aks"]["kind"].as<std::string>(), "AzureASOManagedMachinePool");
  EXPECT_EQ(pools[4]["provider"]["aks"]["kind"].as<std::string>(), "AzureManagedMachinePool");
  EXPECT_TRUE(pools[7]["provider"]["mig"]["gke"].as<bool>());
  EXPECT_FALSE(pools[6]["provider"]["mig"]["gke"]);
  // Zones from the providerIDs: gen.py's us-west-2a and 2b, europe-west1-b and c, fr-par-2.
  EXPECT_EQ(pools[0]["provider"]["asg"]["zones"].as<std::vector<std::string>>(),
            (std::vector<std::string>{"us-west-2a", "us-west-2b"}));
  EXPECT_EQ(pools[6]["provider"]["mig"]["zones"].as<std::vector<std::string>>(),
            (std::vector<std::string>{"europe-west1-b", "europe-west1-c"}));
  EXPECT_EQ(pools[10]["provider"]["kapsule"]["zones"].as<std::vector<std::string>>(),
            std::vector<std::string>{"fr-par-2"});
  EXPECT_FALSE(pools[8]["provider"]["oci"]["zones"]);
}

TEST(CalibrateImport, AzureZonesComeFromTheListingAndTheFitFromTheNodes) {
  const Dumps dumps =
      CalReadFixture("azure", {"nodes.json", "instances.json", "machinepools.json"});
  std::string yaml, error;
  ASSERT_TRUE(ImportedScenario(dumps, Calibrate(dumps), {"az", "d"}, &yaml, &error)) << error;
  const YAML::Node doc = YAML::Load(yaml);
  // gen.py deals VM i to zone i % 3 + 1, alternating scale sets: capz-pool0 has
  // the even i (zones 1, 3, 2 in order of first appearance).
  EXPECT_EQ(
      doc["spec"]["machinePools"][0]["provider"]["vmss"]["zones"].as<std::vector<std::string>>(),
      (std::vector<std::string>{"1", "3", "2"}));
  EXPECT_EQ(doc["spec"]["workloadCluster"]["nodeRegistration"]["dist"].as<std::string>(),
            "lognormal");
  proto::Scenario loaded;
  std::vector<ScenarioError> errors;
  EXPECT_TRUE(LoadScenarioFromString(yaml, "az.yaml", {}, &loaded, &errors)) << errors[0].String();
}

TEST(CalibrateImport, UnknownKindNamesTheFileAndPath) {
  Dumps dumps;
  dumps.pools = {{.file = "mp.json", .at = "$.items[0]", .name = "x", .infra_kind = "FooPool"}};
  std::string yaml, error;
  EXPECT_FALSE(ImportedScenario(dumps, Calibrate(dumps), {"x", "d"}, &yaml, &error));
  EXPECT_EQ(error.rfind("mp.json: $.items[0].spec.template.spec.infrastructureRef.kind: "
                        "\"FooPool\" is no kind mpsim models; expected AWSMachinePool",
                        0),
            0u)
      << error;
}

TEST(CalibrateImport, ScenarioNameFromTheOutputFile) {
  EXPECT_EQ(ImportedScenarioName("/tmp/My Cluster.yaml"), "my-cluster");
  EXPECT_EQ(ImportedScenarioName("out/_prod.yaml"), "prod");
  EXPECT_EQ(ImportedScenarioName("___.yaml"), "imported");
}

}  // namespace
}  // namespace mpsim::calibrate
