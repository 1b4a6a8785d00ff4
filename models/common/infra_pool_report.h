// What every cloud's pool reconciler writes back after a pass (the
// InfraMachinePool contract fields), patched only when something changed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/client.h"
#include "util/shared_string.h"

namespace mpsim {

struct InfraPoolReport {
  ProviderIDList provider_ids;  // spec.providerIDList; status.replicas is its length
  bool ready = false;           // status.ready
  bool provisioned = false;     // status.initialization.provisioned
  // status.infrastructureMachineKind: set by providers that make one
  // InfraMachine per instance (MachinePool Machines), else left unset.
  std::optional<std::string> machine_kind;
};

// Patches `imp` with `report` unless it already says exactly that: the
// providers skip no-op patches, as controller-runtime's patch helper sends
// nothing for an unchanged object.
Status PatchInfraPoolReport(ObjectClient<InfraMachinePool>* client, const InfraMachinePool& imp,
                            InfraPoolReport report);

}  // namespace mpsim
