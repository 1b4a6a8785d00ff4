#include "models/aks/aks_provider.h"

#include "models/aks/aks_schema.h"
#include "models/aks/azureasomanagedmachinepool_reconciler.h"
#include "models/aks/azuremanagedmachinepool_reconciler.h"
#include "sim/distribution_proto.h"

namespace mpsim::aks {

std::string AksProvider::KindOf(const proto::MachinePoolSpec& pool) const {
  return pool.aks().kind();
}

void AksProvider::AddPool(const proto::MachinePoolSpec& spec) {
  Pool& p = pools_[spec.name()];
  p.opts = ToAksOptions(spec);
  if (!arm_) {
    arm_ = std::make_unique<ArmBuckets>(
        ArmBuckets{ArmBucket(p.opts.arm_read_burst, p.opts.arm_reads_per_second),
                   ArmBucket(p.opts.arm_write_burst, p.opts.arm_writes_per_second)});
  }
  p.vmss = std::make_unique<ScaleSet>(ctx_.loop, ctx_.workload, ctx_.recorder, spec.name(), p.opts,
                                      ctx_.seed);
  p.aks = std::make_unique<AgentPool>(ctx_.loop, ctx_.recorder, spec.name(), p.vmss.get(), p.opts,
                                      ctx_.seed);
  p.aso = std::make_unique<AsoAgentPool>(ctx_.loop, ctx_.recorder, spec.name(), p.aks.get(), p.opts,
                                         ctx_.seed);
}

bool AksProvider::ReadsWorkloadNodes() const {
  for (const auto& [name, p] : pools_) {
    if (p.opts.kind == kAzureAsoManagedMachinePoolKind) return true;
  }
  return false;
}

void AksProvider::AddControllers(Manager* manager) {
  WorkQueueOptions q;
  q.workers = 10;  // --azuremachinepool-concurrency (docs/reference/azure-managed.md §1.1, §2.1)
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();
  q.priority_queue = false;
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  AddManagedMachinePools(manager, q);
  AddAsoManagedMachinePools(manager, q);
}

void AksProvider::AddManagedMachinePools(Manager* manager, const WorkQueueOptions& q) {
  std::map<std::string, AzureManagedMachinePoolReconciler::Pool> pools;
  for (auto& [name, p] : pools_) {
    if (p.opts.kind == kAzureManagedMachinePoolKind) {
      pools[name] = {p.vmss.get(), p.aso.get(), &p.opts};
    }
  }
  if (pools.empty()) return;
  ArmBuckets* arm = arm_.get();
  manager->AddController<InfraMachinePool>(
      "azuremanagedmachinepool", q,
      [this, pools, arm](Client* client) {
        return std::make_unique<AzureManagedMachinePoolReconciler>(client, ctx_.loop, ctx_.recorder,
                                                                   arm, pools);
      },
      OwnKind());
}

// The controller watches the ASO resources it applied (rr:151-156): every
// status update of a pool's ManagedClustersAgentPool enqueues that pool.
void AksProvider::AddAsoManagedMachinePools(Manager* manager, const WorkQueueOptions& q) {
  std::map<std::string, AzureAsoManagedMachinePoolReconciler::Pool> pools;
  for (auto& [name, p] : pools_) {
    if (p.opts.kind == kAzureAsoManagedMachinePoolKind) pools[name] = {p.aso.get(), &p.opts};
  }
  if (pools.empty()) return;
  ControllerHandle* handle = manager->AddController<InfraMachinePool>(
      "azureasomanagedmachinepool", q,
      [this, pools](Client* client) {
        return std::make_unique<AzureAsoManagedMachinePoolReconciler>(client, ctx_.loop,
                                                                      ctx_.recorder, pools);
      },
      [](const InfraMachinePool& p) { return p.kind == kAzureAsoManagedMachinePoolKind; });
  for (auto& [name, p] : pools_) {
    if (p.opts.kind != kAzureAsoManagedMachinePoolKind) continue;
    p.aso->on_status = [handle](const ObjectKey& owner) { handle->queue().Add({owner}); };
  }
}

ProviderRegistration Registration() {
  return {.block = "aks",
          .defaults = Defaults,
          .validate = ValidateBlock,
          .make = [](const ProviderContext& ctx) -> std::unique_ptr<InfraProvider> {
            return std::make_unique<AksProvider>(ctx);
          },
          .controllers = {{.controller = "azuremanagedmachinepool",
                           .title = "AzureManagedMachinePool",
                           .resync_stall = ""},
                          {.controller = "azureasomanagedmachinepool",
                           .title = "AzureASOManagedMachinePool",
                           .resync_stall = ""}},
          .instance_states = {{"Creating", InstanceStage::kCreating},
                              {"Succeeded", InstanceStage::kRunning},
                              {"Deleting", InstanceStage::kDeleting},
                              {"Deleted", InstanceStage::kGone},
                              {"Failed", InstanceStage::kFailed}},
          .infra_kinds = {
              {.kind = "AzureManagedMachinePool", .block_keys = "{kind: AzureManagedMachinePool}"},
              {.kind = "AzureASOManagedMachinePool",
               .block_keys = "{kind: AzureASOManagedMachinePool}"}}};
}

}  // namespace mpsim::aks
