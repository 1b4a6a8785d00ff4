#include "models/oci/oci_provider.h"

#include "models/oci/fleet_options.h"
#include "models/oci/oci_schema.h"
#include "models/oci/ocimachinepool_reconciler.h"

namespace mpsim::oci {

std::string OciProvider::kind() const { return kOciMachinePoolKind; }

// With an OCIManagedCluster the providerID is the bare OCID
// (docs/reference/oci-scaleway.md §1.3).
void OciProvider::AddPool(const proto::MachinePoolSpec& pool) {
  const proto::OciProvider& b = pool.oci();
  pools_[pool.name()] = std::make_unique<InstancePool>(
      ctx_.loop, ctx_.workload, ctx_.recorder, pool.name(),
      ToFleetOptions(b, b.managed_cluster() ? "" : "oci://"), ctx_.seed);
}

void OciProvider::AddControllers(Manager* manager) {
  std::map<std::string, InstancePool*> pools;
  for (const auto& [name, p] : pools_) pools[name] = p.get();
  WorkQueueOptions q;
  q.workers = 5;  // --ocimachinepool-concurrency default (docs/reference/oci-scaleway.md §1.6)
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();
  q.priority_queue = false;
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  manager->AddController<InfraMachinePool>(
      "ocimachinepool", q,
      [this, pools](Client* client) {
        return std::make_unique<OciMachinePoolReconciler>(client, ctx_.loop, ctx_.recorder, pools);
      },
      OwnKind());
}

ProviderRegistration Registration() {
  return {.block = "oci",
          .defaults = Defaults,
          .validate = ValidateBlock,
          .make = [](const ProviderContext& ctx) -> std::unique_ptr<InfraProvider> {
            return std::make_unique<OciProvider>(ctx);
          },
          .controllers = {{.controller = "ocimachinepool", .title = "OCIMachinePool"}},
          .instance_states = {{"PROVISIONING", InstanceStage::kCreating},
                              {"RUNNING", InstanceStage::kRunning},
                              {"TERMINATING", InstanceStage::kDeleting},
                              {"TERMINATED", InstanceStage::kGone}},
          .infra_kinds = {{.kind = "OCIMachinePool"}}};
}

}  // namespace mpsim::oci
