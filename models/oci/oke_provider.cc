#include "models/oci/oke_provider.h"

#include "models/oci/fleet_options.h"
#include "models/oci/oci_schema.h"
#include "models/oci/ocimanagedmachinepool_reconciler.h"

namespace mpsim::oci {

std::string OkeProvider::kind() const { return kOciManagedMachinePoolKind; }

// OKE nodes' providerIDs are their bare instance OCIDs (oci-scaleway.md §2.3).
void OkeProvider::AddPool(const proto::MachinePoolSpec& pool) {
  const proto::OkeProvider& b = pool.oke();
  NodeCycling cycling{.enabled = b.is_node_cycling_enabled(),
                      .maximum_surge = b.maximum_surge(),
                      .maximum_unavailable = b.maximum_unavailable(),
                      .eviction_grace = b.eviction_grace_duration(),
                      .drain_delay = ToDistSpec(b.drain_delay())};
  pools_[pool.name()] =
      std::make_unique<NodePool>(ctx_.loop, ctx_.workload, ctx_.recorder, pool.name(),
                                 ToFleetOptions(b, ""), std::move(cycling), ctx_.seed);
}

// The workers are shared with OCIMachinePool's (default 5, oci-scaleway.md
// §2.5); here each block runs in its own manager.
void OkeProvider::AddControllers(Manager* manager) {
  std::map<std::string, NodePool*> pools;
  for (const auto& [name, p] : pools_) pools[name] = p.get();
  WorkQueueOptions q;
  q.workers = 5;
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();
  q.priority_queue = false;
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  manager->AddController<InfraMachinePool>(
      "ocimanagedmachinepool", q,
      [this, pools](Client* client) {
        return std::make_unique<OciManagedMachinePoolReconciler>(client, ctx_.loop, ctx_.recorder,
                                                                 pools);
      },
      OwnKind());
}

ProviderRegistration OkeRegistration() {
  return {
      .block = "oke",
      .defaults = OkeDefaults,
      .validate = ValidateOkeBlock,
      .make = [](const ProviderContext& ctx) -> std::unique_ptr<InfraProvider> {
        return std::make_unique<OkeProvider>(ctx);
      },
      .controllers = {{.controller = "ocimanagedmachinepool", .title = "OCIManagedMachinePool"}},
      .instance_states = {{"CREATING", InstanceStage::kCreating},
                          {"ACTIVE", InstanceStage::kRunning},
                          {"DELETING", InstanceStage::kDeleting},
                          {"DELETED", InstanceStage::kGone}},
      .infra_kinds = {{.kind = "OCIManagedMachinePool"}}};
}

}  // namespace mpsim::oci
