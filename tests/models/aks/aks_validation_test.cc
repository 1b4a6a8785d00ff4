// `mpsim validate` of the `aks` block: the defaults pass; a wrong kind, an
// agent-pool name outside AKS's rule (docs/reference/azure-managed.md §1.9),
// both upgrade settings 0, and autoscaler bounds past AKS's 1000 nodes per
// pool (§3.1) are refused with the key's path.
#include <gtest/gtest.h>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

testing::Ran AksValidate(const std::string& block) {
  return testing::ValidateProviderBlock("aks", block);
}

TEST(AksValidation, DefaultsAndBothKindsAreValid) {
  EXPECT_EQ(AksValidate("{}").status, 0) << AksValidate("{}").out;
  EXPECT_EQ(AksValidate("{kind: AzureASOManagedMachinePool}").status, 0);
  EXPECT_EQ(AksValidate("{maxSurge: \"33%\", maxUnavailable: \"1\", drainTimeout: 5m}").status, 0);
  EXPECT_EQ(AksValidate("{autoscaler: {minCount: 1, maxCount: 1000, steps: [{at: 5m, count: 3}]}}")
                .status,
            0);
}

TEST(AksValidation, BadValuesNameTheirKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{kind: AzureMachinePool}", "provider.aks.kind"},
      {"{agentPoolName: Pool-0}", "provider.aks.agentPoolName"},
      {"{agentPoolName: abcdefghijklm}", "provider.aks.agentPoolName"},
      {"{maxSurge: \"0\", maxUnavailable: \"0\"}", "provider.aks.maxSurge"},
      {"{maxSurge: \"150%\"}", "provider.aks.maxSurge"},
      {"{autoscaler: {minCount: 1, maxCount: 1001}}", "provider.aks.autoscaler"},
      {"{autoscaler: {minCount: 5, maxCount: 2}}", "provider.aks.autoscaler"},
  };
  for (const auto& [block, key] : cases) {
    const testing::Ran r = AksValidate(block);
    EXPECT_NE(r.status, 0) << block;
    EXPECT_NE(r.out.find(key), std::string::npos) << block << "\n" << r.out;
  }
}

}  // namespace
}  // namespace mpsim
