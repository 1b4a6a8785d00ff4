// The watches every cloud's MachinePool controller declares alike: its own
// InfraMachinePool kind, and every MachinePool mapped to its infrastructureRef.
#pragma once

#include <string>

#include "api/reconciler.h"

namespace mpsim {

// Whether an update of a pool that changes only its status wakes its controller.
enum class PoolStatusUpdates {
  kDropped,  // a generation or update predicate on For(): CAPA's AWSMachinePool, CAPZ, CAPG
  kKept,     // For() with no predicate: EKS, ROSA, CAPOCI, CAPS
};

// A provider's SetupWithManager (docs/reference/providers.md §0.1, §1.6.1, §2.6.1,
// §3.6.1): updates of a pool of `kind` wake its controller, status-only ones
// as `status` says; every MachinePool update, status patches included, maps
// to its infrastructureRef when that is of `kind`
// (machinePoolToInfrastructureMapFunc).
void WatchProviderPools(Builder* b, const std::string& kind,
                        PoolStatusUpdates status = PoolStatusUpdates::kDropped);

}  // namespace mpsim
