#include "models/mig/gcpmachinepool_reconciler.h"

#include <algorithm>

#include "models/common/infra_pool_report.h"
#include "models/common/provider_watches.h"
#include "models/mig/instance_url.h"

namespace mpsim::mig {
namespace {

// CAPG requeues every minute after a successful pass, "to keep the
// spec.providerIDList and status in sync with the MIG" (docs/reference/providers.md §3.6.1;
// exp/controllers/gcpmachinepool_controller.go at CAPG HEAD 5e0bb3b, June
// 2026: the January 2026 spike returned {} before providerIDList existed).
constexpr Duration kRequeue = kMinute;

}  // namespace

GcpMachinePoolReconciler::GcpMachinePoolReconciler(Client* client, const Clock* clock,
                                                   Recorder* rec, ApiQuota* quota,
                                                   std::map<std::string, Pool> pools)
    : client_(client), clock_(clock), rec_(rec), quota_(quota), pools_(std::move(pools)) {}

void GcpMachinePoolReconciler::Setup(Builder* b) { WatchProviderPools(b, kGcpMachinePoolKind); }

Status GcpMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  auto p = pools_.find(imp->meta.name);
  if (p == pools_.end())
    return Status::Invalid("no Managed Instance Group model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, p->second, result);
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  Status s = ReconcileNormal(*imp, *mp, p->second);
  // Waiting for bootstrap data returns {}: the MachinePool watch brings CAPG
  // back when the data secret is set (docs/reference/providers.md §3.6.1).
  const bool waiting = !mp->spec.template_.spec.bootstrap.data_secret_name;
  if (s.ok() && !waiting) result->requeue_after = kRequeue;
  return s;
}

Status GcpMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp,
                                                 const Pool& pool) {
  if (!HasFinalizer(imp.meta, kGcpMachinePoolFinalizer)) {
    InfraMachinePool with = imp;
    with.meta.finalizers.push_back(kGcpMachinePoolFinalizer);
    if (Status s = client_->InfraMachinePools().Patch(imp, &with); !s.ok()) return s;
  }
  if (!mp.spec.template_.spec.bootstrap.data_secret_name)
    return Status::Ok();  // WaitingForBootstrapData
  if (pool.zones.size() != 1) {
    return Status::Invalid("GCPMachinePool " + imp.meta.name +
                           " needs exactly one failure domain (zone), got " +
                           std::to_string(pool.zones.size()));
  }
  if (Status s = SyncTemplate(imp, mp, pool); !s.ok()) return s;
  ManagedInstanceGroup* g = pool.group;
  const int32_t want = mp.spec.replicas.value_or(1);
  if (Status s = Call(imp, "compute:instanceGroupManagers.get"); !s.ok()) return s;
  if (!g->exists()) {
    if (Status s = Call(imp, "compute:instanceGroupManagers.insert"); !s.ok()) return s;
    g->Insert(pool.zones[0], want, mp.spec.template_.spec.version.value_or(""));
  } else if (g->target_size() != want) {
    if (Status s = Call(imp, "compute:instanceGroupManagers.resize"); !s.ok()) return s;
    g->Resize(want);
  }
  return WriteStatus(imp, pool);
}

// A new template for every change of the bootstrap data or the version, set on
// the group with setInstanceTemplate; the update policy decides what happens
// to existing VMs (docs/reference/providers.md §3.6.1).
Status GcpMachinePoolReconciler::SyncTemplate(const InfraMachinePool& imp, const MachinePool& mp,
                                              const Pool& pool) {
  const MachineSpec& spec = mp.spec.template_.spec;
  const std::string key =
      spec.version.value_or("") + "/" + spec.bootstrap.data_secret_name.value_or("");
  std::string& current = templates_[imp.meta.name];
  if (key == current) return Status::Ok();
  if (Status s = Call(imp, "compute:instanceTemplates.insert"); !s.ok()) return s;
  const bool first = current.empty();
  current = key;
  if (first || !pool.group->exists()) return Status::Ok();
  if (Status s = Call(imp, "compute:instanceGroupManagers.setInstanceTemplate"); !s.ok()) return s;
  pool.group->SetInstanceTemplate(spec.version.value_or(""));
  return Status::Ok();
}

// providerIDList from the group's members: a VM that was never created (a
// stockout) is not listed, so the pool stays ScalingUp (docs/reference/providers.md §3.5).
Status GcpMachinePoolReconciler::WriteStatus(const InfraMachinePool& imp, const Pool& pool) {
  if (Status s = Call(imp, "compute:instanceGroups.listInstances"); !s.ok()) return s;
  const std::vector<const ManagedInstance*> members = pool.group->ListInstances();
  ProviderIdCache& cache = ids_[imp.meta.name];
  std::vector<const SharedString*> urls(members.size());
  for (size_t i = 0; i < members.size(); ++i) urls[i] = &members[i]->url;
  std::vector<SharedString> ids;
  if (Status s = cache.GetAll(urls, &ids); !s.ok()) return s;
  cache.Trim(members.size());
  return PatchInfraPoolReport(&client_->InfraMachinePools(), imp,
                              {.provider_ids = std::move(ids), .ready = true, .provisioned = true});
}

Status GcpMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp, const Pool& pool,
                                                 Result* result) {
  ManagedInstanceGroup* g = pool.group;
  if (g->exists()) {
    if (Status s = Call(imp, "compute:instanceGroupManagers.delete"); !s.ok()) return s;
    g->Delete();
    if (g->exists()) {
      result->requeue_after = kRequeue;
      return Status::Ok();
    }
  }
  if (!HasFinalizer(imp.meta, kGcpMachinePoolFinalizer)) return Status::Ok();
  if (Status s = Call(imp, "compute:instanceTemplates.delete"); !s.ok()) return s;
  InfraMachinePool next = imp;
  std::erase(next.meta.finalizers, std::string(kGcpMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

Status GcpMachinePoolReconciler::Call(const InfraMachinePool& imp, const char* api) {
  rec_->ProviderApiCall(imp.meta.name, api);
  if (quota_->Take(clock_->Now())) return Status::Ok();
  rec_->Fault(clock_->Now(), imp.meta.name, imp.meta.name, "rateLimitExceeded");
  return Status::Throttled(
      std::string("googleapi: Error 403: Quota exceeded (rateLimitExceeded) on ") + api);
}

}  // namespace mpsim::mig
