// Scaleway identifiers: instance UUIDs drawn from a pool's own random stream
// (so a run replays byte for byte) and the providerID Kapsule reports for a
// node (docs/reference/oci-scaleway.md §3.2).
#pragma once

#include <string>

#include "sim/random.h"

namespace mpsim::kapsule {

// A random (version 4) UUID, lower-case hex in the 8-4-4-4-12 form; two
// draws of `rng`.
std::string NewUuid(Rng* rng);

// "scaleway://instance/<zone>/<uuid>": the Kapsule API's Node.ProviderID,
// the instance ID prefixed with the product and the location, which the
// Scaleway cloud-controller-manager builds and parses alike (§3.2).
std::string InstanceProviderId(const std::string& zone, const std::string& uuid);

}  // namespace mpsim::kapsule
