// The providerID forms the clouds' controllers write on Nodes (the forms
// mpsim's providers write, models/*/): "aws:///<zone>/<instance-id>",
// "azure:///subscriptions/<s>/resourceGroups/<rg>/providers/Microsoft.Compute/
// virtualMachineScaleSets/<vmss>/virtualMachines/<n>" (or ".../virtualMachines/<name>"
// for a Flexible scale set), "gce://<project>/<zone>/<name>",
// "scaleway://instance/<zone>/<uuid>", "oci://<ocid>".
#pragma once

#include <string>

namespace mpsim::calibrate {

// The key by which an instance and a Node are the same machine: an AWS
// providerID by its instance id alone (the zone part is the CCM's, and the
// instance id is unique in a region), an Azure one case-folded (ARM resource
// ids are case-insensitive and CAPZ lower-cases the resource group), any
// other as written.
std::string JoinKey(const std::string& provider_id);

// The zone a providerID names (aws, gce and scaleway forms), else "".
std::string ZoneOf(const std::string& provider_id);

}  // namespace mpsim::calibrate
