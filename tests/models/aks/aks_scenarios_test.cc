// The `aks` scenarios of scenarios/azure through the real `mpsim check`
// (issue 50): each kind's 10-replica pool, scale-down, upgrade, deletion,
// CAPZ#5985's count lag, the list frozen while ASO is busy, allocation
// failures, ARM 429s, the 1000-node limit and a 1000-node pool; and the
// deleteMachine event refused for a pool without MachinePool Machines.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

TEST(ScenarioAks, LibraryPasses) {
  for (const char* f :
       {"aks-scale-up-10", "aks-aso-scale-up-10", "aks-scale-down-10-4", "aks-upgrade-10",
        "aks-delete-pool", "aks-capz-5985-count-lag", "aks-frozen-provider-ids",
        "aks-allocation-failed", "aks-throttled", "aks-count-above-1000", "aks-scale-up-1000"}) {
    const std::string path = testing::Src(std::string("scenarios/azure/") + f + ".yaml");
    auto r = testing::Mpsim("check " + path);
    EXPECT_EQ(r.status, 0) << f << "\n" << r.out;
    EXPECT_NE(r.out.find("ok   " + path), std::string::npos) << r.out;
  }
}

// docs/reference/azure-managed.md §1.5 step 6: the AMMP's providerIDs are
// azure:/// + the VM's ARM ID with the node resource group lowercased.
TEST(ScenarioAks, AmmpProviderIdsLowercaseTheNodeResourceGroup) {
  const std::string out = testing::ScratchPath("aks-ids").string();
  auto r = testing::Mpsim("run " + testing::Src("scenarios/azure/aks-scale-up-10.yaml") +
                          " --out " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string timeline = testing::Slurp(out + "/timeline.csv");
  EXPECT_NE(timeline.find("azure:///subscriptions/00000000-0000-0000-0000-000000000000/"
                          "resourceGroups/mc_mpsim-rg_mpsim-aks_eastus/providers/"
                          "Microsoft.Compute/virtualMachineScaleSets/aks-mp0-"),
            std::string::npos);
  EXPECT_EQ(timeline.find("resourceGroups/MC_mpsim-rg"), std::string::npos);
  std::filesystem::remove_all(out);
}

// Neither AKS kind has MachinePool Machines (docs/reference/azure-managed.md
// intro): deleteMachine is refused before the run, exit 2.
TEST(ScenarioAks, DeleteMachineIsRefused) {
  const auto path = testing::ScratchPath("aks-delete-machine.yaml");
  std::ofstream(path) << "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: aks-dm}\n"
                         "spec:\n  horizon: 30m\n  machinePools:\n"
                         "    - {name: mp-0, replicas: 2, provider: {aks: {}}}\n"
                         "  events:\n    - {at: 10m, deleteMachine: {pool: mp-0}}\n";
  auto r = testing::Mpsim("run " + path.string() + " --quiet", true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("spec.events[0].deleteMachine.pool"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("`aks`"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mpsim
