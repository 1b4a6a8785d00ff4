#include "models/mig/gcpmachinepool_reconciler.h"

#include <algorithm>

#include "models/common/bootstrap_data.h"
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

// BaseInstanceTemplateResourceName and createOrGetInstanceTemplate
// (cloud/scope/machinepool.go:231-240, instancetemplate_reconcile.go:119-134;
// docs/reference/providers.md §3.6.1): the pool's name cut to 46 characters
// and "-", then 16 hex digits of a hash of that prefix and the whole desired
// template. Of the template the model varies the image (from the version)
// and the user-data metadata (machinepool.go:352-355), so a new join token
// is a new name.
std::string InstanceTemplateName(const std::string& pool, const MachineSpec& spec,
                                 const std::string& user_data) {
  const std::string prefix = pool.substr(0, 63 - 16 - 1) + "-";
  return prefix + DataHash(prefix + "\n" + spec.version.value_or("") + "\n" + user_data);
}

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
  std::string instance_template;
  if (Status s = ReconcileInstanceTemplate(imp, mp, &instance_template); !s.ok()) return s;
  if (Status s = ReconcileInstanceGroupManager(imp, mp, pool, instance_template); !s.ok()) {
    return s;
  }
  return WriteStatus(imp, pool);
}

// createOrGetInstanceTemplate (instancetemplate_reconcile.go:106-167): a new
// template for every change of the bootstrap data (each token rotation) or
// the version, as the name hashes both (docs/reference/providers.md §3.6.1).
// The bootstrap data is read first (InstanceTemplateResource).
Status GcpMachinePoolReconciler::ReconcileInstanceTemplate(const InfraMachinePool& imp,
                                                           const MachinePool& mp,
                                                           std::string* name) {
  std::string user_data;
  if (Status s = GetBootstrapData(client_, imp.meta.ns, mp, &user_data); !s.ok()) return s;
  *name = InstanceTemplateName(imp.meta.name, mp.spec.template_.spec, user_data);
  std::set<std::string>& made = templates_[imp.meta.name];
  if (made.count(*name)) return Status::Ok();
  if (Status s = Call(imp, "compute:instanceTemplates.insert"); !s.ok()) return s;
  made.insert(*name);
  return Status::Ok();
}

// createOrGet (instancegroupmanagers_reconcile.go:90-155): insert the group
// on the template, or resize it (:132-140), then set the template when it
// differs (:142-152); the update policy decides what a new template does to
// the VMs running (docs/reference/providers.md §3.2).
Status GcpMachinePoolReconciler::ReconcileInstanceGroupManager(const InfraMachinePool& imp,
                                                               const MachinePool& mp,
                                                               const Pool& pool,
                                                               const std::string& name) {
  ManagedInstanceGroup* g = pool.group;
  const std::string version = mp.spec.template_.spec.version.value_or("");
  const int32_t want = mp.spec.replicas.value_or(1);
  if (Status s = Call(imp, "compute:instanceGroupManagers.get"); !s.ok()) return s;
  if (!g->exists()) {
    if (Status s = Call(imp, "compute:instanceGroupManagers.insert"); !s.ok()) return s;
    g->Insert(pool.zones[0], want, version, name);
    return Status::Ok();
  }
  if (g->target_size() != want) {
    if (Status s = Call(imp, "compute:instanceGroupManagers.resize"); !s.ok()) return s;
    g->Resize(want);
  }
  if (g->instance_template() == name) return Status::Ok();
  if (Status s = Call(imp, "compute:instanceGroupManagers.setInstanceTemplate"); !s.ok()) return s;
  g->SetInstanceTemplate(version, name);
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
  templates_.erase(imp.meta.name);
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
