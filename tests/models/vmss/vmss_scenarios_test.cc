// The Azure scenario library through the real `mpsim check` (issue 6):
// AllocationFailed partial scale-ups, CAPZ #5860's endless loop with the
// v1.26.0 and HEAD ready behaviour, upgrades with maxSurge 1 and 25%,
// scale-down per delete policy, pool deletion, ARM throttling, Spot eviction,
// CAPZ #2817's resource-group case mismatch, a Flexible scale set, and HEAD
// protecting the last unready replacement in policy order (issue 48).
#include <gtest/gtest.h>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

TEST(ScenarioAzure, LibraryPasses) {
  auto r = testing::Mpsim("check " + testing::Src("scenarios/azure"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  for (const char* f :
       {"scale-up-1000-allocation-failed", "capz-1503-last-segment", "capz-1503-exact",
        "endless-loop-v1-26", "endless-loop-head", "upgrade-100", "upgrade-100-surge-25",
        "scale-down-1000-100", "scale-down-1000-100-newest", "delete-500", "throttled",
        "spot-eviction", "capz-2817-resource-group-case", "flexible-scale-up-50",
        "machinepool-machines-drain", "rollout-protects-last-replacement"}) {
    EXPECT_NE(r.out.find(std::string("ok   ") + testing::Src("scenarios/azure/") + f),
              std::string::npos)
        << f;
  }
}

// CAPZ #2817: the Nodes' providerIDs keep "Tilt" and CAPZ lists "tilt", so
// the run says which providerIDs never got a Node.
TEST(ScenarioAzure, Capz2817PoolStaysScalingUpWithItsProviderIdsUnmatched) {
  const std::string out = testing::ScratchPath("capz-2817").string();
  auto r =
      testing::Mpsim("run " + testing::Src("scenarios/azure/capz-2817-resource-group-case.yaml") +
                     " --out " + out);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("pool mp-0 (vmss): ScalingUp, not converged - at the horizon: phase "
                       "ScalingUp, ready 0/3, available 0/3; 3 providerID(s) in the "
                       "InfraMachinePool never got a Node in status.nodeRefs (first: "
                       "azure:///subscriptions/00000000-0000-0000-0000-000000000000/"
                       "resourceGroups/tilt/providers/Microsoft.Compute/"
                       "virtualMachineScaleSets/mp-0/virtualMachines/0)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("pool mp-1 (vmss): Running, converged"), std::string::npos) << r.out;
  std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace mpsim
