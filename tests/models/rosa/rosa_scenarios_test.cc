// The `rosa` scenarios of scenarios/aws through the real `mpsim check`
// (scale-up, scale-down, upgrade, deletion), the one-zone rule and the
// refused deleteMachine.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

std::string RosaScenario(const std::string& block, const std::string& events) {
  return "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: rosa-cli}\nspec:\n"
         "  horizon: 30m\n  machinePools:\n    - name: mp-0\n      replicas: 2\n"
         "      provider: {rosa: " +
         block + "}\n" + events;
}

std::string WriteRosaScratch(const std::string& name, const std::string& text) {
  const auto path = testing::ScratchPath(name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(RosaScenarios, LibraryPasses) {
  for (const char* f : {"rosa-scale-up-10", "rosa-scale-down-100-20", "rosa-upgrade-6",
                        "rosa-delete-50", "rosa-ice", "rosa-throttled"}) {
    const std::string path = testing::Src("scenarios/aws/") + f + ".yaml";
    auto r = testing::Mpsim("check " + path);
    EXPECT_EQ(r.status, 0) << f << "\n" << r.out;
    EXPECT_NE(r.out.find("ok   " + path), std::string::npos) << r.out;
  }
}

// ROSAMachinePools take no setInfraPoolSpec edits: exit 2, and the message
// names the pools that take them (models/registry.cc).
TEST(RosaScenarios, EditsAreRefusedNamingThePoolsThatTakeThem) {
  auto r = testing::Mpsim(
      "validate " +
          WriteRosaScratch("rosa-edit.yaml",
                           RosaScenario("{}",
                                        "  events:\n    - {at: 5m, setInfraPoolSpec: {pool: "
                                        "mp-0, fields: {scaling.minSize: \"2\"}}}\n")),
      true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("pool \"mp-0\" takes no InfraMachinePool spec fields"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("eks (scaling.minSize, scaling.maxSize)"), std::string::npos) << r.out;
}

TEST(RosaScenarios, OneZoneOnly) {
  auto r = testing::Mpsim(
      "validate " + WriteRosaScratch("rosa-zones.yaml",
                                     RosaScenario("{zones: [us-east-1a, us-east-1b]}", "")),
      true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("one subnet"), std::string::npos) << r.out;
}

TEST(RosaScenarios, DeleteMachineIsRefused) {
  const std::string events = "  events:\n    - {at: 5m, deleteMachine: {pool: mp-0}}\n";
  auto r =
      testing::Mpsim("run --quiet " + WriteRosaScratch("rosa-dm.yaml", RosaScenario("{}", events)) +
                         " --out " + testing::ScratchPath("rosa-dm-out").string(),
                     true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("rosa"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mpsim
