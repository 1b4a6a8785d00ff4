#include "models/rosa/rosa_provider.h"

#include "models/rosa/rosa_schema.h"
#include "models/rosa/rosamachinepool_reconciler.h"
#include "sim/distribution_proto.h"

namespace mpsim::rosa {

std::string RosaProvider::kind() const { return kRosaMachinePoolKind; }

void RosaProvider::AddPool(const proto::MachinePoolSpec& pool) {
  RosaOptions opts = ToRosaOptions(pool.rosa());
  if (pools_.empty() && opts.api_throttling.enabled) {
    throttle_ = std::make_unique<RosaApiThrottle>(opts.api_throttling);
  }
  pools_[pool.name()] = std::make_unique<NodePool>(ctx_.loop, ctx_.workload, ctx_.recorder,
                                                   pool.name(), std::move(opts), ctx_.seed);
}

void RosaProvider::AddControllers(Manager* manager) {
  std::map<std::string, NodePool*> pools;
  for (const auto& [name, np] : pools_) pools[name] = np.get();
  WorkQueueOptions q;
  q.workers = 5;  // --awscluster-concurrency default (docs/reference/aws-managed.md §3.1)
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();  // docs/reference/providers.md §0.1
  q.priority_queue = false;  // CAPA does not enable controller-runtime's priority queue
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  manager->AddController<InfraMachinePool>(
      "rosamachinepool", q,
      [this, pools](Client* client) {
        return std::make_unique<RosaMachinePoolReconciler>(client, ctx_.loop, ctx_.recorder, pools,
                                                           throttle_.get());
      },
      OwnKind());
}

int RosaProvider::KillInstances(const std::string& pool, int count, Rng* rng) {
  auto it = pools_.find(pool);
  if (it == pools_.end()) return 0;
  const auto victims = DrawWithoutReplacement(it->second->Running(), count, rng);
  for (const std::string& id : victims) it->second->Kill(id);
  return static_cast<int>(victims.size());
}

ProviderRegistration Registration() {
  return {.block = "rosa",
          .defaults = Defaults,
          .validate = ValidateBlock,
          .make = [](const ProviderContext& ctx) -> std::unique_ptr<InfraProvider> {
            return std::make_unique<RosaProvider>(ctx);
          },
          // No requeue once the NodePool is ready (docs/reference/aws-managed.md §3.2).
          .controllers = {{.controller = "rosamachinepool",
                           .title = "ROSAMachinePool",
                           .resync_stall = ""}},
          // EC2's instance-state names, which ROSA's providerIDs are read from.
          .instance_states = {{"pending", InstanceStage::kCreating},
                              {"running", InstanceStage::kRunning},
                              {"shutting-down", InstanceStage::kDeleting},
                              {"terminated", InstanceStage::kGone}},
          .infra_kinds = {{.kind = "ROSAMachinePool"}}};
}

}  // namespace mpsim::rosa
