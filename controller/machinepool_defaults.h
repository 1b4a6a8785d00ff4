// The MachinePool defaulting webhook (core/webhooks/admission/machinepool.go),
// for scenario loaders that create MachinePools the way the API server would.
#pragma once

#include <cstdint>

#include "api/objects.h"
#include "api/status.h"

namespace mpsim {

// webhook default of spec.template.spec.deletion.nodeDeletionTimeoutSeconds.
inline constexpr int32_t kDefaultNodeDeletionTimeoutSeconds = 10;

// calculateMachinePoolReplicas: keeps new_mp's replicas; else, with both
// autoscaler min/max annotations, min on create (old_mp == nullptr) or when the
// old pool had none or fewer, max when it had more, else the old value; else 1.
// Invalid if an annotation is not a base-10 int32.
Status CalculateMachinePoolReplicas(const MachinePool* old_mp, const MachinePool& new_mp,
                                    int32_t* replicas);

// Default(): cluster-name label, spec.replicas, nodeDeletionTimeoutSeconds 10,
// and a "v" prefix on spec.template.spec.version.
Status DefaultMachinePool(const MachinePool* old_mp, MachinePool* mp);

}  // namespace mpsim
