#include "models/mig/mig_provider.h"

#include "models/mig/gcpmachinepool_reconciler.h"
#include "sim/scenario_loader.h"

namespace mpsim::mig {

std::string MigProvider::kind() const { return kGcpMachinePoolKind; }

void MigProvider::AddPool(const proto::MachinePoolSpec& pool) {
  MigOptions o = ToMigOptions(pool.mig());
  if (!quota_) quota_ = std::make_unique<ApiQuota>(o.api_requests_per_minute);
  groups_[pool.name()] = std::make_unique<ManagedInstanceGroup>(
      ctx_.loop, ctx_.workload, ctx_.recorder, pool.name(), o, ctx_.seed);
  options_[pool.name()] = std::move(o);
}

void MigProvider::AddControllers(Manager* manager) {
  std::map<std::string, GcpMachinePoolReconciler::Pool> pools;
  for (const auto& [name, g] : groups_) {
    const MigOptions& o = options_.at(name);
    pools[name] = {g.get(), o.zones, o.project};
  }
  WorkQueueOptions q;
  q.workers = 10;  // CAPG --gcpmachine-concurrency default (providers.md §3.6.1)
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();  // providers.md §0.1
  q.priority_queue = false;
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  ApiQuota* quota = quota_.get();
  manager->AddController<InfraMachinePool>(
      "gcpmachinepool", q,
      [this, pools, quota](Client* client) {
        return std::make_unique<GcpMachinePoolReconciler>(client, ctx_.loop, ctx_.recorder, quota,
                                                          pools);
      },
      OwnKind());
}

int MigProvider::KillInstances(const std::string& pool, int count, Rng* rng) {
  auto it = groups_.find(pool);
  if (it == groups_.end()) return 0;
  std::vector<std::string> running;
  for (const ManagedInstance* mi : it->second->ListInstances()) {
    if (mi->status == VmStatus::kRunning) running.push_back(mi->name);
  }
  const auto victims = DrawWithoutReplacement(std::move(running), count, rng);
  for (const std::string& name : victims) it->second->Kill(name);
  return static_cast<int>(victims.size());
}

}  // namespace mpsim::mig
