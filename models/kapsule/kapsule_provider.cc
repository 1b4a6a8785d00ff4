#include "models/kapsule/kapsule_provider.h"

#include "models/kapsule/kapsule_schema.h"
#include "models/kapsule/scalewaymanagedmachinepool_reconciler.h"
#include "sim/distribution_proto.h"

namespace mpsim::kapsule {

std::string KapsuleProvider::kind() const { return kScalewayManagedMachinePoolKind; }

void KapsuleProvider::AddPool(const proto::MachinePoolSpec& pool) {
  KapsuleOptions o = ToKapsuleOptions(pool.kapsule());
  pools_[pool.name()] = std::make_unique<KapsulePool>(ctx_.loop, ctx_.workload, ctx_.recorder,
                                                      pool.name(), o, ctx_.seed);
  options_[pool.name()] = std::move(o);
}

void KapsuleProvider::AddControllers(Manager* manager) {
  std::map<std::string, ScalewayManagedMachinePoolReconciler::Pool> pools;
  for (const auto& [name, p] : pools_) pools[name] = {p.get(), options_.at(name).upgrade_policy};
  WorkQueueOptions q;
  // No MaxConcurrentReconciles: controller-runtime's 1 worker
  // (docs/reference/oci-scaleway.md §3.5).
  q.workers = 1;
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();
  q.priority_queue = false;
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  manager->AddController<InfraMachinePool>(
      "scalewaymanagedmachinepool", q,
      [this, pools](Client* client) {
        return std::make_unique<ScalewayManagedMachinePoolReconciler>(client, ctx_.loop,
                                                                      ctx_.recorder, pools);
      },
      OwnKind());
}

ProviderRegistration Registration() {
  return {.block = "kapsule",
          .defaults = Defaults,
          .validate = ValidateBlock,
          .warn = WarnBlock,
          .make = [](const ProviderContext& ctx) -> std::unique_ptr<InfraProvider> {
            return std::make_unique<KapsuleProvider>(ctx);
          },
          .controllers = {{.controller = "scalewaymanagedmachinepool",
                           .title = "ScalewayManagedMachinePool"}},
          .instance_states = {{"creating", InstanceStage::kCreating},
                              {"creation_error", InstanceStage::kFailed},
                              {"ready", InstanceStage::kRunning},
                              {"deleting", InstanceStage::kDeleting},
                              {"deleted", InstanceStage::kGone}},
          .infra_kinds = {{.kind = "ScalewayManagedMachinePool"}}};
}

}  // namespace mpsim::kapsule
