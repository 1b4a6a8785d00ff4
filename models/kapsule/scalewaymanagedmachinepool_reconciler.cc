#include "models/kapsule/scalewaymanagedmachinepool_reconciler.h"

#include <algorithm>

#include "models/common/provider_watches.h"

namespace mpsim::kapsule {

ScalewayManagedMachinePoolReconciler::ScalewayManagedMachinePoolReconciler(
    Client* client, const Clock* clock, Recorder* rec, std::map<std::string, Pool> pools)
    : client_(client), clock_(clock), rec_(rec), pools_(std::move(pools)) {}

void ScalewayManagedMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kScalewayManagedMachinePoolKind, PoolStatusUpdates::kKept);
  // ClusterPausedTransitionsOrInfrastructureProvisioned: a pause or resume
  // wakes every pool of the cluster (the model's pools share its one cluster).
  b->WatchClusters([this](const WatchEvent<Cluster>& ev) {
    std::vector<Request> out;
    if (ev.old == nullptr || ev.old->spec.paused == ev.obj.spec.paused) return out;
    for (const auto& [name, pool] : pools_) out.push_back({{ev.obj.meta.ns, name}});
    return out;
  });
}

// The ScalewayManagedCluster and ScalewayManagedControlPlane reads always
// succeed in the model.
Status ScalewayManagedMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> cached = client_->InfraMachinePools().GetShared(req.key);
  if (cached == nullptr) return Status::Ok();
  auto p = pools_.find(cached->meta.name);
  if (p == pools_.end()) return Status::Invalid("no Kapsule pool model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(cached->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({cached->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  // annotations.IsPaused: a paused Cluster stops every pass, deletion included.
  std::shared_ptr<const Cluster> cluster =
      client_->Clusters().GetShared({cached->meta.ns, mp->spec.cluster_name});
  if (cluster != nullptr && cluster->spec.paused) return Status::Ok();
  InfraMachinePool imp = *cached;
  if (imp.meta.deletion_timestamp) {
    Status s = ReconcileDelete(&imp, p->second, result);
    if (Status c = Close(*cached, &imp); s.ok()) s = c;
    return s;
  }
  return ReconcileNormal(*cached, &imp, *mp, p->second, result);
}

Status ScalewayManagedMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& cached,
                                                             InfraMachinePool* imp,
                                                             const MachinePool& mp,
                                                             const Pool& pool, Result* result) {
  InfraMachinePool base = cached;
  if (!HasFinalizer(imp->meta, kScalewayManagedMachinePoolFinalizer)) {
    imp->meta.finalizers.push_back(kScalewayManagedMachinePoolFinalizer);
    if (Status s = client_->InfraMachinePools().Patch(base, imp); !s.ok()) return s;
    base = *imp;
  }
  PoolService service(pool.pool, rec_, imp->meta.name);
  const ServiceError e = service.Reconcile(DesiredOf(mp, pool.upgrade_policy), imp);
  SetPoolReady(imp->meta.name, e.ok());
  if (e.ok()) {
    imp->status.initialization_provisioned = true;
    imp->status.ready = true;
  }
  Status s = Requeue(e, result);
  if (Status c = Close(base, imp); s.ok()) s = c;
  return s;
}

// The finalizer goes once Delete returns nil (§3.4).
Status ScalewayManagedMachinePoolReconciler::ReconcileDelete(InfraMachinePool* imp,
                                                             const Pool& pool, Result* result) {
  PoolService service(pool.pool, rec_, imp->meta.name);
  const ServiceError e = service.Delete();
  if (!e.ok()) return Requeue(e, result);
  std::erase(imp->meta.finalizers, std::string(kScalewayManagedMachinePoolFinalizer));
  return Status::Ok();
}

Status ScalewayManagedMachinePoolReconciler::Requeue(const ServiceError& e, Result* result) const {
  if (e.ok()) return Status::Ok();
  if (e.requeue_after > 0) {
    result->requeue_after = e.requeue_after;
    return Status::Ok();
  }
  return e.error;
}

void ScalewayManagedMachinePoolReconciler::SetPoolReady(const std::string& name, bool ready) {
  auto [it, added] = pool_ready_.try_emplace(name, false);
  if (!added && it->second == ready) return;
  if (added && !ready) return;  // the condition starts False
  rec_->Change(clock_->Now(), kScalewayManagedMachinePoolKind, name, "PoolReady",
               it->second ? "True" : "False", ready ? "True" : "False", name);
  it->second = ready;
}

Status ScalewayManagedMachinePoolReconciler::Close(const InfraMachinePool& base,
                                                   InfraMachinePool* imp) {
  if (*imp == base) return Status::Ok();
  return client_->InfraMachinePools().Patch(base, imp);
}

}  // namespace mpsim::kapsule
