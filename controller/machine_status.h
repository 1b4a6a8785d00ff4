// The v1beta2 conditions Cluster API's Machine controller sets in its
// deferred updateStatus (machine_controller_status.go), for the Machines of
// a MachinePool: what the pool's ready and available counters count
// (docs/reference/capi-core.md §4.1).
#pragma once

#include <optional>
#include <string>

#include "api/objects.h"
#include "api/status.h"
#include "api/time.h"

namespace mpsim {

// What one Machine reconcile learnt, as upstream's scope carries it.
struct MachineScope {
  Cluster cluster;
  Machine* machine = nullptr;
  std::optional<InfraMachine> infra_machine;
  bool infra_machine_is_not_found = false;
  std::optional<Node> node;
  Status node_get_error = Status::Ok();
  std::string deleting_reason;
  std::string deleting_message;
};

// setBootstrapReadyCondition: a MachinePool Machine has no configRef (its
// data secret is the pool's), so the condition is True, DataSecretProvided.
void SetBootstrapReadyCondition(Machine* m, Time now);
// setInfrastructureReadyCondition: the InfraMachine kinds here report no
// Ready condition, so the fallback on status.initialization.
// infrastructureProvisioned decides.
void SetInfrastructureReadyCondition(const MachineScope& s, Time now);
// setNodeHealthyAndReadyConditions, from the Node reconcileNode found.
void SetNodeHealthyAndReadyConditions(const MachineScope& s, Time now);

struct NodeHealth {
  std::string status, reason, message;
};
// summarizeNodeConditions: Ready and the three pressure conditions.
NodeHealth SummarizeNodeConditions(const Node& node);

// setDeletingCondition and setUpdatingCondition (no in-place updates here).
void SetDeletingCondition(Machine* m, const std::string& reason, const std::string& message,
                          Time now);
void SetUpdatingCondition(Machine* m, Time now);
// setReadyCondition: the summary of Deleting, Updating, BootstrapConfigReady,
// InfrastructureReady, NodeHealthy and (if present) HealthCheckSucceeded.
void SetReadyCondition(Machine* m, Time now);
// setAvailableCondition: Ready for spec.minReadySeconds. Returns the
// requeue until then (0: none).
Duration SetAvailableCondition(Machine* m, Time now);

// updateStatus: every condition above, in upstream's order; returns the
// requeue of SetAvailableCondition.
Duration UpdateMachineStatus(MachineScope* s, Time now);

}  // namespace mpsim
