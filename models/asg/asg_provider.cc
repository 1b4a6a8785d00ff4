#include "models/asg/asg_provider.h"

#include "models/asg/asg_schema.h"
#include "models/asg/awsmachine_reconciler.h"
#include "models/asg/awsmachinepool_reconciler.h"
#include "sim/distribution_proto.h"

namespace mpsim::asg {

std::string AsgProvider::kind() const { return kAwsMachinePoolKind; }

void AsgProvider::AddPool(const proto::MachinePoolSpec& pool) {
  AsgOptions opts = ToAsgOptions(pool.asg());
  opts.id_block = static_cast<uint32_t>(groups_.size());
  if (groups_.empty() && opts.api_throttling.enabled) {
    throttle_ = std::make_unique<AwsThrottle>(opts.api_throttling);
  }
  auto group = std::make_unique<AutoScalingGroup>(ctx_.loop, ctx_.workload, ctx_.recorder,
                                                  pool.name(), std::move(opts), ctx_.seed);
  group->set_throttle(throttle_.get());
  groups_[pool.name()] = std::move(group);
}

void AsgProvider::AddControllers(Manager* manager) {
  std::map<std::string, AutoScalingGroup*> groups;
  for (const auto& [name, g] : groups_) groups[name] = g.get();
  WorkQueueOptions q;
  q.workers = 5;  // CAPA --instance-state-concurrency default (docs/reference/providers.md §1.6.1)
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();  // docs/reference/providers.md §0.1
  q.priority_queue = false;  // CAPA does not enable controller-runtime's priority queue
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  manager->AddController<InfraMachinePool>(
      "awsmachinepool", q,
      [this, groups](Client* client) {
        return std::make_unique<AwsMachinePoolReconciler>(client, ctx_.loop, ctx_.recorder, groups,
                                                          throttle_.get());
      },
      OwnKind());
  std::map<std::string, AutoScalingGroup*> gated;
  for (const auto& [name, g] : groups_) {
    if (g->options().machine_pool_machines) gated[name] = g.get();
  }
  if (gated.empty()) return;
  WorkQueueOptions mq = q;
  mq.workers = 10;  // CAPA --awsmachine-concurrency default (main.go)
  // Its informer holds AWSMachines only: the 10-minute resync re-adds no
  // other provider's machines.
  manager->AddController<InfraMachine>(
      "awsmachine", mq,
      [this, gated](Client* client) {
        return std::make_unique<AwsMachineReconciler>(client, ctx_.loop, ctx_.recorder, gated,
                                                      throttle_.get());
      },
      [](const InfraMachine& im) { return im.kind == kAwsMachineKind; });
}

bool AsgProvider::CreatesMachines(const std::string& pool) const {
  auto it = groups_.find(pool);
  return it != groups_.end() && it->second->options().machine_pool_machines;
}

int AsgProvider::KillInstances(const std::string& pool, int count, Rng* rng) {
  auto it = groups_.find(pool);
  if (it == groups_.end()) return 0;
  std::vector<std::string> in_service;
  for (const Instance* inst : it->second->Describe()) {
    if (inst->state == State::kInService) in_service.push_back(inst->id);
  }
  const auto victims = DrawWithoutReplacement(std::move(in_service), count, rng);
  for (const std::string& id : victims) it->second->Kill(id);
  return static_cast<int>(victims.size());
}

ProviderRegistration Registration() {
  return {.block = "asg",
          .defaults = Defaults,
          .validate = ValidateBlock,
          .make = [](const ProviderContext& ctx) -> std::unique_ptr<InfraProvider> {
            return std::make_unique<AsgProvider>(ctx);
          },
          // CAPA requeues only 15 s after creating the group (and every 3 min
          // with MachinePoolMachines): an instance listed later waits for a
          // MachinePool change or the resync (docs/reference/providers.md
          // §1.6.1; docs/reference/managed-providers.md §8 "Stale lists",
          // docs/reference/capi-core.md §7).
          .controllers = {{.controller = "awsmachinepool",
                           .title = "AWSMachinePool",
                           .resync_stall = "CAPA#4618, cluster-api#4062"}},
          // A launch hook holds a running, booting instance in Pending:Wait.
          .instance_states = {{"Pending", InstanceStage::kCreating},
                              {"InService", InstanceStage::kRunning},
                              {"Pending:Wait", InstanceStage::kRunning},
                              {"Pending:Proceed", InstanceStage::kRunning},
                              {"Terminating", InstanceStage::kDeleting},
                              {"Terminating:Wait", InstanceStage::kDeleting},
                              {"Terminating:Proceed", InstanceStage::kDeleting},
                              {"Terminated", InstanceStage::kGone}},
          .infra_kinds = {{.kind = "AWSMachinePool"}}};
}

}  // namespace mpsim::asg
