// The watches every cloud's MachinePool controller declares alike: its own
// InfraMachinePool kind, and every MachinePool mapped to its infrastructureRef.
#pragma once

#include <string>

#include "api/reconciler.h"

namespace mpsim {

// CAPA, CAPZ and CAPG's SetupWithManager (docs/reference/providers.md §0.1, §1.6.1, §2.6.1,
// §3.6.1): updates of a pool of `kind` that change only its status are
// dropped; every MachinePool update, status patches included, maps to its
// infrastructureRef when that is of `kind` (machinePoolToInfrastructureMapFunc).
void WatchProviderPools(Builder* b, const std::string& kind);

}  // namespace mpsim
