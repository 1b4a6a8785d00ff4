#include "models/mig/mig_provider.h"

#include "models/mig/gcpmachinepool_reconciler.h"
#include "models/mig/gcpmanagedmachinepool_reconciler.h"
#include "models/mig/mig_schema.h"
#include "models/mig/mig_validate.h"
#include "sim/distribution_proto.h"

namespace mpsim::mig {

std::string MigProvider::kind() const { return kGcpMachinePoolKind; }

std::string MigProvider::KindOf(const proto::MachinePoolSpec& pool) const {
  return pool.mig().gke() ? kGcpManagedMachinePoolKind : kGcpMachinePoolKind;
}

void MigProvider::AddPool(const proto::MachinePoolSpec& pool) {
  MigOptions o = ToMigOptions(pool.mig());
  if (!quota_) quota_ = std::make_unique<ApiQuota>(o.api_requests_per_minute);
  if (o.gke) {
    node_pools_[pool.name()] = std::make_unique<NodePool>(ctx_.loop, ctx_.workload, ctx_.recorder,
                                                          pool.name(), o, ctx_.seed);
  } else {
    groups_[pool.name()] = std::make_unique<ManagedInstanceGroup>(
        ctx_.loop, ctx_.workload, ctx_.recorder, pool.name(), o, ctx_.seed);
  }
  options_[pool.name()] = std::move(o);
}

void MigProvider::AddControllers(Manager* manager) {
  WorkQueueOptions q;
  q.workers = 10;  // CAPG --gcpmachine-concurrency default (docs/reference/providers.md §3.6.1)
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();  // docs/reference/providers.md §0.1
  q.priority_queue = false;
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  if (!groups_.empty()) AddGcpMachinePools(manager, q);
  if (!node_pools_.empty()) AddGcpManagedMachinePools(manager, q);
}

void MigProvider::AddGcpMachinePools(Manager* manager, const WorkQueueOptions& q) {
  std::map<std::string, GcpMachinePoolReconciler::Pool> pools;
  for (const auto& [name, g] : groups_) {
    const MigOptions& o = options_.at(name);
    pools[name] = {g.get(), o.zones, o.project};
  }
  ApiQuota* quota = quota_.get();
  manager->AddController<InfraMachinePool>(
      "gcpmachinepool", q,
      [this, pools, quota](Client* client) {
        return std::make_unique<GcpMachinePoolReconciler>(client, ctx_.loop, ctx_.recorder, quota,
                                                          pools);
      },
      OwnKind());
}

// The same queue settings as GCPMachinePool's: docs/reference/providers.md names no
// concurrency flag of its own for the GKE controller (assumed 10).
void MigProvider::AddGcpManagedMachinePools(Manager* manager, const WorkQueueOptions& q) {
  std::map<std::string, GcpManagedMachinePoolReconciler::Pool> pools;
  for (const auto& [name, np] : node_pools_) {
    const MigOptions& o = options_.at(name);
    pools[name] = {np.get(), o.project, BlockConfig(o), o.autoscaling};
  }
  ApiQuota* quota = quota_.get();
  manager->AddController<InfraMachinePool>(
      "gcpmanagedmachinepool", q,
      [this, pools, quota](Client* client) {
        return std::make_unique<GcpManagedMachinePoolReconciler>(client, ctx_.loop, ctx_.recorder,
                                                                 quota, pools);
      },
      [](const InfraMachinePool& p) { return p.kind == kGcpManagedMachinePoolKind; });
}

std::vector<std::pair<ManagedInstanceGroup*, std::string>> MigProvider::Running(
    const std::string& pool) {
  std::vector<ManagedInstanceGroup*> groups;
  if (auto it = groups_.find(pool); it != groups_.end()) groups.push_back(it->second.get());
  if (auto it = node_pools_.find(pool); it != node_pools_.end()) {
    for (const auto& g : it->second->groups()) groups.push_back(g.get());
  }
  std::vector<std::pair<ManagedInstanceGroup*, std::string>> out;
  for (ManagedInstanceGroup* g : groups) {
    for (const ManagedInstance* mi : g->ListInstances()) {
      if (mi->status == VmStatus::kRunning) out.emplace_back(g, mi->name);
    }
  }
  return out;
}

int MigProvider::KillInstances(const std::string& pool, int count, Rng* rng) {
  if (!groups_.count(pool) && !node_pools_.count(pool)) return 0;
  const auto victims = DrawWithoutReplacement(Running(pool), count, rng);
  for (const auto& [group, name] : victims) group->Kill(name);
  return static_cast<int>(victims.size());
}

ProviderRegistration Registration() {
  return {.block = "mig",
          .defaults = Defaults,
          .validate = ValidateBlock,
          .validate_edit = ValidateInfraPoolSpecEdit,
          .edit_pools = "mig with gke: true",
          .edit_keys = EditableKeys(),
          .warn = WarnBlock,
          .make = [](const ProviderContext& ctx) -> std::unique_ptr<InfraProvider> {
            return std::make_unique<MigProvider>(ctx);
          },
          .controllers = {{.controller = "gcpmachinepool", .title = "GCPMachinePool"}},
          .instance_states = {{"PROVISIONING", InstanceStage::kCreating},
                              {"STAGING", InstanceStage::kCreating},
                              {"RUNNING", InstanceStage::kRunning},
                              {"STOPPING", InstanceStage::kDeleting},
                              {"TERMINATED", InstanceStage::kGone}},
          .infra_kinds = {{.kind = "GCPMachinePool"},
                          {.kind = "GCPManagedMachinePool", .block_keys = "{gke: true}"}}};
}

}  // namespace mpsim::mig
