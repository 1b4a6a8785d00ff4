#include "models/eks/eks_provider.h"

#include "models/eks/awsmanagedmachinepool_reconciler.h"
#include "models/eks/eks_schema.h"
#include "sim/distribution_proto.h"

namespace mpsim::eks {

std::string EksProvider::kind() const { return kAwsManagedMachinePoolKind; }

void EksProvider::AddPool(const proto::MachinePoolSpec& pool) {
  EksOptions opts = ToEksOptions(pool.eks());
  if (groups_.empty() && opts.api_throttling.enabled) {
    throttle_ = std::make_unique<EksApiThrottle>(opts.api_throttling);
  }
  groups_[pool.name()] = std::make_unique<NodeGroup>(ctx_.loop, ctx_.workload, ctx_.recorder,
                                                     pool.name(), std::move(opts), ctx_.seed);
  waiter_rngs_[pool.name()] =
      std::make_unique<Rng>(StreamFor(ctx_.seed, "eks/" + pool.name() + "/waiter"));
}

void EksProvider::AddControllers(Manager* manager) {
  std::map<std::string, AwsManagedMachinePoolReconciler::Pool> pools;
  for (const auto& [name, g] : groups_) pools[name] = {g.get(), waiter_rngs_.at(name).get()};
  WorkQueueOptions q;
  // --instance-state-concurrency, default 5; a queue and workers of its own
  // (docs/reference/aws-managed.md §1.1).
  q.workers = 5;
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();  // docs/reference/providers.md §0.1
  q.priority_queue = false;  // CAPA does not enable controller-runtime's priority queue
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  manager->AddController<InfraMachinePool>(
      "awsmanagedmachinepool", q,
      [this, pools](Client* client) {
        return std::make_unique<AwsManagedMachinePoolReconciler>(client, ctx_.loop, ctx_.recorder,
                                                                 pools, throttle_.get());
      },
      OwnKind());
}

int EksProvider::KillInstances(const std::string& pool, int count, Rng* rng) {
  auto it = groups_.find(pool);
  if (it == groups_.end()) return 0;
  const auto victims = DrawWithoutReplacement(it->second->InService(), count, rng);
  for (const std::string& id : victims) it->second->Kill(id);
  return static_cast<int>(victims.size());
}

ProviderRegistration Registration() {
  return {.block = "eks",
          .defaults = Defaults,
          .validate = ValidateBlock,
          .validate_edit = ValidateEdit,
          .edit_keys = {kScalingMinSizeField, kScalingMaxSizeField},
          .make = [](const ProviderContext& ctx) -> std::unique_ptr<InfraProvider> {
            return std::make_unique<EksProvider>(ctx);
          },
          // No timed requeue at all: a list left stale by the waiter or an
          // instance change waits for an event or the 10 min resync
          // (docs/reference/aws-managed.md §1.1, §6 row 20).
          .controllers = {{.controller = "awsmanagedmachinepool",
                           .title = "AWSManagedMachinePool",
                           .resync_stall = ""}},
          // The node group's Auto Scaling group's lifecycle states.
          .instance_states = {{"Pending", InstanceStage::kCreating},
                              {"InService", InstanceStage::kRunning},
                              {"Terminating", InstanceStage::kDeleting},
                              {"Terminated", InstanceStage::kGone}},
          .infra_kinds = {{.kind = "AWSManagedMachinePool"}}};
}

}  // namespace mpsim::eks
