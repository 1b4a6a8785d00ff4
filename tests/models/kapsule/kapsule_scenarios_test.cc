// The Scaleway scenario library through the real `mpsim check` (issue 51):
// scale-up (10 and 1,000 nodes), scale-down, upgrade, deletion, a capacity
// shortage and a pause; the refusal of `deleteMachine` (CAPS has no MachinePool
// Machines, docs/reference/oci-scaleway.md §3.4); the block's rules.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/testing/run_mpsim.h"
#include "tests/testing/run_scenario.h"

namespace mpsim {
namespace {

TEST(ScenarioScaleway, LibraryPasses) {
  auto r = testing::Mpsim("check " + testing::Src("scenarios/scaleway"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  for (const char* f :
       {"scale-up", "scale-up-1000", "scale-down", "upgrade", "deletion", "capacity-shortage"}) {
    EXPECT_NE(r.out.find(std::string("ok   ") + testing::Src("scenarios/scaleway/") + f + ".yaml"),
              std::string::npos)
        << f;
  }
}

constexpr const char* kKapsuleDeleteMachine = R"(apiVersion: mpsim/v1
kind: Scenario
metadata: {name: kapsule-delete-machine}
spec:
  horizon: 20m
  machinePools:
    - {name: mp-0, replicas: 2, provider: {kapsule: {}}}
  events:
    - {at: 10m, deleteMachine: {pool: mp-0}}
)";

TEST(KapsuleDeleteMachine, IsRefusedBeforeTheRun) {
  RunOutput out;
  std::string error;
  EXPECT_FALSE(RunScenarioText(kKapsuleDeleteMachine, &out, &error));
  EXPECT_NE(error.find("spec.events[0].deleteMachine.pool: pool \"mp-0\" runs on provider "
                       "`kapsule`, whose model creates no MachinePool Machines"),
            std::string::npos)
      << error;
}

TEST(KapsuleDeleteMachine, RunExitsWithTwo) {
  const std::filesystem::path path = testing::ScratchPath("kapsule_delete_machine.yaml");
  std::ofstream(path) << kKapsuleDeleteMachine;
  const auto r = testing::Mpsim("run " + path.string() + " --quiet --out " +
                                    testing::ScratchPath("kapsule_delete_machine_out").string(),
                                /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("runs on provider `kapsule`"), std::string::npos) << r.out;
}

TEST(KapsuleValidation, OneZoneOnly) {
  const auto r = testing::ValidateProviderBlock("kapsule", "{zones: [fr-par-1, fr-par-2]}");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("a Kapsule pool lives in one zone"), std::string::npos) << r.out;
}

TEST(KapsuleValidation, NegativePolicyIsAnErrorAndBothZeroAWarning) {
  auto r = testing::ValidateProviderBlock("kapsule", "{upgradePolicy: {maxSurge: -1}}");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("upgradePolicy.maxSurge"), std::string::npos) << r.out;
  r = testing::ValidateProviderBlock("kapsule",
                                     "{upgradePolicy: {maxSurge: 0, maxUnavailable: 0}}");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("maxSurge and maxUnavailable are both 0"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mpsim
