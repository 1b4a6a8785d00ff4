// The AzureManagedMachinePool's providerID of a scale-set VM
// (docs/reference/azure-managed.md §1.5 step 6): `azure://` + the ARM ID with
// only the resource-group segment lowercased.
#include "models/aks/provider_id.h"

#include <gtest/gtest.h>

namespace mpsim::aks {
namespace {

// The fixture VM of TestAzureManagedMachinePoolReconcile "Reconcile succeed"
// (controllers/azuremanagedmachinepool_controller_test.go) and the
// providerID that test expects.
TEST(AksProviderId, UpstreamFixtureLowercasesOnlyTheResourceGroup) {
  std::string out;
  ASSERT_TRUE(ProviderIdOf("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/"
                           "myResourceGroupName/providers/Microsoft.Compute/"
                           "virtualMachineScaleSets/myScaleSetName/virtualMachines/156",
                           &out)
                  .ok());
  EXPECT_EQ(out,
            "azure:///subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/"
            "myresourcegroupname/providers/Microsoft.Compute/virtualMachineScaleSets/"
            "myScaleSetName/virtualMachines/156");
}

// ConvertResourceGroupNameToLower: a node resource group's capitals go, the
// scale set's name keeps its own (§1.5 step 6, §6 #1).
TEST(AksProviderId, NodeResourceGroupIsLoweredAndScaleSetNameKept) {
  std::string out;
  ASSERT_TRUE(ConvertResourceGroupNameToLower(
                  "/subscriptions/s/resourceGroups/MC_Rg_Aks_EastUS/providers/Microsoft.Compute/"
                  "virtualMachineScaleSets/aks-Pool0-1-vmss/virtualMachines/3",
                  &out)
                  .ok());
  EXPECT_EQ(out,
            "/subscriptions/s/resourceGroups/mc_rg_aks_eastus/providers/Microsoft.Compute/"
            "virtualMachineScaleSets/aks-Pool0-1-vmss/virtualMachines/3");
}

// A parse failure is an error (rec:158-166).
TEST(AksProviderId, AnIdWithoutAResourceGroupIsAnError) {
  std::string out;
  EXPECT_FALSE(ProviderIdOf("vmssID", &out).ok());
  EXPECT_FALSE(ProviderIdOf("/subscriptions/s/providers/Microsoft.Compute/x", &out).ok());
}

}  // namespace
}  // namespace mpsim::aks
