#include "models/mig/gcpmanagedmachinepool_reconciler.h"

#include <algorithm>
#include <string_view>

#include "api/infra_pool_report.h"
#include "api/provider_watches.h"
#include "models/mig/instance_url.h"

namespace mpsim::mig {
namespace {

// While GKE is busy (provisioning, reconciling, an operation in progress)
// CAPG requeues after 1 minute; otherwise it returns {} (providers.md §3.6.2).
constexpr Duration kBusyRequeue = kMinute;

// Regional pools divide MP replicas by the number of locations with integer
// division (providers.md §3.6.2: 5 replicas in 3 zones -> 1 per zone).
int32_t PerZone(int32_t replicas, size_t zones) {
  return zones > 1 ? replicas / static_cast<int32_t>(zones) : replicas;
}

}  // namespace

GcpManagedMachinePoolReconciler::GcpManagedMachinePoolReconciler(Client* client, const Clock* clock,
                                                                 Recorder* rec, ApiQuota* quota,
                                                                 std::map<std::string, Pool> pools)
    : client_(client), clock_(clock), rec_(rec), quota_(quota), pools_(std::move(pools)) {}

void GcpManagedMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kGcpManagedMachinePoolKind);
}

Status GcpManagedMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  auto p = pools_.find(imp->meta.name);
  if (p == pools_.end()) return Status::Invalid("no GKE node pool model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, p->second, result);
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  return ReconcileNormal(*imp, *mp, p->second, result);
}

Status GcpManagedMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& imp,
                                                        const MachinePool& mp, const Pool& pool,
                                                        Result* result) {
  if (!HasFinalizer(imp.meta, kGcpManagedMachinePoolFinalizer)) {
    InfraMachinePool with = imp;
    with.meta.finalizers.push_back(kGcpManagedMachinePoolFinalizer);
    if (Status s = client_->InfraMachinePools().Patch(imp, &with); !s.ok()) return s;
  }
  NodePool* np = pool.node_pool;
  if (Status s = Call(imp, "container:nodePools.get"); !s.ok()) return s;
  if (np->status() == NodePoolStatus::kAbsent) {
    if (Status s = Call(imp, "container:nodePools.create"); !s.ok()) return s;
    const int32_t n = PerZone(mp.spec.replicas.value_or(1), np->locations().size());
    return Busy(np->Create(n, mp.spec.template_.spec.version.value_or("")), result);
  }
  if (Status s = WriteStatus(imp, pool); !s.ok()) return s;
  switch (np->status()) {
    case NodePoolStatus::kProvisioning:
    case NodePoolStatus::kReconciling:
      result->requeue_after = kBusyRequeue;
      return Status::Ok();
    case NodePoolStatus::kStopping:
    case NodePoolStatus::kAbsent:
      return Status::Ok();
    case NodePoolStatus::kRunning:
      break;
  }
  return ReconcileChanges(imp, mp, pool, result);
}

// Config (here: the version) first, then the size; CAPG's size check compares
// with initialNodeCount and applies only without autoscaling (providers.md §3.6.2).
Status GcpManagedMachinePoolReconciler::ReconcileChanges(const InfraMachinePool& imp,
                                                         const MachinePool& mp, const Pool& pool,
                                                         Result* result) {
  NodePool* np = pool.node_pool;
  const std::string version = mp.spec.template_.spec.version.value_or("");
  if (np->version() != version) {
    if (Status s = Call(imp, "container:nodePools.update"); !s.ok()) return s;
    return Busy(np->Update(version), result);
  }
  const int32_t n = PerZone(mp.spec.replicas.value_or(1), np->locations().size());
  if (n != np->initial_node_count()) {
    if (Status s = Call(imp, "container:nodePools.setSize"); !s.ok()) return s;
    return Busy(np->SetSize(n), result);
  }
  return Status::Ok();
}

// providerIDList from listManagedInstances of every group: CREATING entries
// are listed too, so a stocked-out VM gives an ID no Node will ever carry
// (providers.md §3.5; that GKE fills their instance URL is assumed there).
Status GcpManagedMachinePoolReconciler::WriteStatus(const InfraMachinePool& imp, const Pool& pool) {
  NodePool* np = pool.node_pool;
  std::vector<std::string> ids;
  for (size_t i = 0; i < np->groups().size(); ++i) {
    const ManagedInstanceGroup& g = *np->groups()[i];
    if (!g.exists()) continue;
    if (Status s = Call(imp, "compute:instanceGroupManagers.listManagedInstances"); !s.ok())
      return s;
    for (const ManagedInstance* mi : g.ListManagedInstances()) {
      ids.push_back(ProviderIdFromResource(pool.project, np->locations()[i], mi->name));
    }
  }
  const bool ready = np->status() != NodePoolStatus::kProvisioning;
  const bool provisioned = imp.status.initialization_provisioned.value_or(false) || ready;
  return PatchInfraPoolReport(
      &client_->InfraMachinePools(), imp,
      {.provider_ids = std::move(ids), .ready = ready, .provisioned = provisioned});
}

// Deletion waits for the DeleteNodePool operation, a minute at a time (d).
Status GcpManagedMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp,
                                                        const Pool& pool, Result* result) {
  NodePool* np = pool.node_pool;
  if (Status s = Call(imp, "container:nodePools.get"); !s.ok()) return s;
  if (np->status() == NodePoolStatus::kStopping) {
    result->requeue_after = kBusyRequeue;
    return Status::Ok();
  }
  if (np->status() != NodePoolStatus::kAbsent) {
    if (Status s = Call(imp, "container:nodePools.delete"); !s.ok()) return s;
    return Busy(np->Delete(), result);
  }
  if (!HasFinalizer(imp.meta, kGcpManagedMachinePoolFinalizer)) return Status::Ok();
  InfraMachinePool next = imp;
  std::erase(next.meta.finalizers, std::string(kGcpManagedMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

Status GcpManagedMachinePoolReconciler::Busy(Status s, Result* result) const {
  if (s.ok() || s.code() == Status::Code::kConflict) {
    result->requeue_after = kBusyRequeue;
    return Status::Ok();
  }
  return s;
}

Status GcpManagedMachinePoolReconciler::Call(const InfraMachinePool& imp, const char* api) {
  rec_->ProviderApiCall(imp.meta.name, api);
  if (!std::string_view(api).starts_with("compute:") || quota_->Take(clock_->Now())) {
    return Status::Ok();
  }
  rec_->Fault(clock_->Now(), imp.meta.name, imp.meta.name, "rateLimitExceeded");
  return Status::Throttled(
      std::string("googleapi: Error 403: Quota exceeded (rateLimitExceeded) on ") + api);
}

}  // namespace mpsim::mig
