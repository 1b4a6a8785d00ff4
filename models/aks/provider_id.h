// The AzureManagedMachinePool's providerID of a scale-set VM
// (controllers/azuremanagedmachinepool_reconciler.go, docs/reference/azure-managed.md
// §1.5 step 6): `azure://` and the VM's ARM ID, whose resource-group segment
// cloud-provider-azure's ConvertResourceGroupNameToLower lowercases.
#pragma once

#include <string>

#include "api/status.h"

namespace mpsim::aks {

// The text between `resourceGroups/` and the last `/providers/` (the
// greedy match), lowercased where it first occurs; Invalid when the ID has
// no such segment.
Status ConvertResourceGroupNameToLower(const std::string& resource_id, std::string* out);

// `azure://` + the converted ID (three slashes: the ID starts with `/`).
Status ProviderIdOf(const std::string& vm_resource_id, std::string* out);

}  // namespace mpsim::aks
