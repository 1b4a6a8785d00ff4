// The `eks` scenarios of scenarios/aws through the real `mpsim check`
// (scale-up, scale-down, upgrade, deletion, CAPA#5672), and through the CLI:
// the node-group quota at load, the refused deleteMachine, and `mpsim
// compare --providers asg,eks,rosa`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

std::string EksScenario(int replicas, const std::string& events, const std::string& block = "{}") {
  return "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: eks-cli}\nspec:\n"
         "  horizon: 30m\n  machinePools:\n    - name: mp-0\n      replicas: " +
         std::to_string(replicas) + "\n      provider: {eks: " + block + "}\n" + events;
}

std::string WriteScratch(const std::string& name, const std::string& text) {
  const auto path = testing::ScratchPath(name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(EksScenarios, LibraryPasses) {
  for (const char* f : {"eks-scale-up-10", "eks-scale-down-100-20", "eks-upgrade-6",
                        "eks-delete-50", "eks-capa-5672-never-joins",
                        "eks-capa-5746-min-above-desired", "eks-ice", "eks-throttled"}) {
    const std::string path = testing::Src("scenarios/aws/") + f + ".yaml";
    auto r = testing::Mpsim("check " + path);
    EXPECT_EQ(r.status, 0) << f << "\n" << r.out;
    EXPECT_NE(r.out.find("ok   " + path), std::string::npos) << r.out;
  }
}

// docs/reference/aws-managed.md §2.4: 450 nodes per managed node group.
TEST(EksScenarios, ReplicasAboveTheQuotaAreRejected) {
  auto r = testing::Mpsim("validate " + WriteScratch("eks-quota.yaml", EksScenario(451, "")), true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("quota of nodes per managed node group (450"), std::string::npos) << r.out;
  r = testing::Mpsim("validate " + WriteScratch("eks-quota-ok.yaml", EksScenario(450, "")), true);
  EXPECT_EQ(r.status, 0) << r.out;
}

// awsmanagedmachinepool_webhook_test.go ValidateCreate "update config with
// both values" (:135): an error; "minSize 0 is accepted" (:148).
TEST(EksScenarios, WebhookRulesOfTheBlock) {
  auto r = testing::Mpsim(
      "validate " +
          WriteScratch("eks-both.yaml",
                       EksScenario(2, "", "{maxUnavailable: 1, maxUnavailablePercentage: 10}")),
      true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("not both"), std::string::npos) << r.out;
  r = testing::Mpsim(
      "validate " + WriteScratch("eks-min0.yaml", EksScenario(2, "", "{minSize: 0}")), true);
  EXPECT_EQ(r.status, 0) << r.out;
}

// setInfraPoolSpec on an eks pool: a bad count is exit 2 at the field's
// path; a good edit of spec.scaling loads.
TEST(EksScenarios, ScalingEditsAreValidated) {
  auto r = testing::Mpsim(
      "validate " +
          WriteScratch("eks-edit-bad.yaml",
                       EksScenario(2,
                                   "  events:\n    - {at: 5m, setInfraPoolSpec: {pool: mp-0, "
                                   "fields: {scaling.minSize: \"-2\"}}}\n",
                                   "{minSize: 0, maxSize: 5}")),
      true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("setInfraPoolSpec.fields.scaling.minSize: expected a node count"),
            std::string::npos)
      << r.out;
  r = testing::Mpsim(
      "validate " +
          WriteScratch("eks-edit-ok.yaml",
                       EksScenario(2,
                                   "  events:\n    - {at: 5m, setInfraPoolSpec: {pool: mp-0, "
                                   "fields: {scaling.minSize: \"2\"}}}\n",
                                   "{minSize: 0, maxSize: 5}")),
      true);
  EXPECT_EQ(r.status, 0) << r.out;
}

// CAPA cannot delete one node of a node group: no MachinePool Machines.
TEST(EksScenarios, DeleteMachineIsRefused) {
  const std::string events = "  events:\n    - {at: 5m, deleteMachine: {pool: mp-0}}\n";
  auto r = testing::Mpsim("run --quiet " + WriteScratch("eks-dm.yaml", EksScenario(2, events)) +
                              " --out " + testing::ScratchPath("eks-dm-out").string(),
                          true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("eks"), std::string::npos) << r.out;
}

TEST(EksScenarios, CompareRunsAsgEksAndRosa) {
  const auto dir = testing::ScratchPath("compare_aws");
  auto r = testing::Mpsim("compare " + testing::Src("scenarios/aws/rosa-scale-up-10.yaml") +
                          " --providers asg,eks,rosa --json --out " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* p : {"asg", "eks", "rosa"}) {
    EXPECT_NE(r.out.find(std::string("\"") + p + "\""), std::string::npos) << p;
    const std::string summary = testing::Slurp(dir / p / "summary.json");
    EXPECT_NE(summary.find(std::string("\"provider\": \"") + p + "\""), std::string::npos)
        << summary.substr(0, 400);
  }
}

}  // namespace
}  // namespace mpsim
