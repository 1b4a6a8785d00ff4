#include "models/rosa/rosamachinepool_reconciler.h"

#include <algorithm>
#include <vector>

#include "models/common/provider_watches.h"

namespace mpsim::rosa {

RosaMachinePoolReconciler::RosaMachinePoolReconciler(Client* client, const Clock* clock,
                                                     Recorder* rec,
                                                     std::map<std::string, NodePool*> pools,
                                                     RosaApiThrottle* throttle)
    : client_(client), clock_(clock), rec_(rec), throttle_(throttle), pools_(std::move(pools)) {}

// rctl:54-76: the pool itself (its status patches wake it again) and every
// MachinePool mapped to its infrastructure object. The ROSAControlPlane
// watch has nothing to map: the model's control plane is ready throughout.
void RosaMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kRosaMachinePoolKind, PoolStatusUpdates::kKept);
}

// rctl:86-312.
Status RosaMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  auto p = pools_.find(imp->meta.name);
  if (p == pools_.end()) return Status::Invalid("no ROSA NodePool model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, p->second);
  if (!HasFinalizer(imp->meta, kRosaMachinePoolFinalizer)) {  // rctl:201-205
    InfraMachinePool with = *imp;
    with.meta.finalizers.push_back(kRosaMachinePoolFinalizer);
    if (Status s = client_->InfraMachinePools().Patch(*imp, &with); !s.ok()) return s;
    imp = client_->InfraMachinePools().GetShared(req.key);
    if (imp == nullptr) return Status::Ok();
  }
  if (Status s = Call(imp->meta.name, "ocm:GetNodePool"); !s.ok()) return s;
  if (!p->second->exists()) return ReconcileCreate(*imp, *mp, p->second);
  return ReconcileFound(*imp, *mp, p->second, result);
}

// rctl:243-292: update, replicas under the annotation, the providerIDList,
// status.replicas, then ready (version step, no requeue) or not (60 s).
Status RosaMachinePoolReconciler::ReconcileFound(const InfraMachinePool& imp, const MachinePool& mp,
                                                 NodePool* np, Result* result) {
  const bool managed = mp.meta.annotations.count(kReplicasManagedBy) > 0;
  // rctl:379-385: replicas count as differing only when set and not
  // externally managed.
  if (!managed && mp.spec.replicas && *mp.spec.replicas != np->replicas()) {
    if (Status s = Call(imp.meta.name, "ocm:UpdateNodePool"); !s.ok()) return s;
    if (Status s = np->SetReplicas(*mp.spec.replicas); !s.ok()) return s;
  }
  const int32_t current = np->CurrentReplicas();
  if (managed && mp.spec.replicas != std::optional<int32_t>(current)) {  // rctl:255-266
    MachinePool next = mp;
    next.spec.replicas = current;
    if (Status s = client_->MachinePools().Patch(mp, &next); !s.ok()) return s;
  }
  // rctl:549-596: one DescribeInstances filtered on running|pending; its
  // error (only throttling in the model) fails the pass (rctl:267-269, §3.11).
  if (Status s = Call(imp.meta.name, "ec2:DescribeInstances"); !s.ok()) {
    return Status::Throttled("failed to reconcile ProviderIDList: " + s.message());
  }
  const std::vector<const Instance*> listed = np->RunningOrPending();
  InfraMachinePool next = imp;
  // The list the pool has is kept when it names the same instances in the
  // same order (each entry is the instance's own string), sparing a
  // 10,000-entry copy and compare on every 60 s pass.
  const bool same = imp.spec.provider_id_list &&
                    imp.spec.provider_id_list->size() == listed.size() &&
                    std::equal(listed.begin(), listed.end(), imp.spec.provider_id_list->begin(),
                               [](const Instance* inst, const SharedString& id) {
                                 return inst->provider_id.identity() == id.identity();
                               });
  if (!same) {
    std::vector<SharedString> ids;
    ids.reserve(listed.size());
    for (const Instance* inst : listed) ids.push_back(inst->provider_id);
    next.spec.provider_id_list = ProviderIDList(std::move(ids));
  }
  next.status.replicas = current;
  const bool ready = NodePoolReady(np->replicas(), current);
  // status.ready is set on the ready path only, never back to false (§3.2).
  if (ready) next.status.ready = true, next.status.initialization_provisioned = true;
  if (!(next == imp)) {
    if (Status s = client_->InfraMachinePools().Patch(imp, &next); !s.ok()) return s;
  }
  if (!ready) {
    result->requeue_after = kNotReadyRequeue;
    return Status::Ok();
  }
  return ReconcileVersion(imp, mp, np);
}

// rctl:294-311: create and return with no requeue; the status patch (status.id
// upstream, which the model's object lacks: status.ready false here) is the
// watch event that brings the next pass.
Status RosaMachinePoolReconciler::ReconcileCreate(const InfraMachinePool& imp,
                                                  const MachinePool& mp, NodePool* np) {
  if (Status s = Call(imp.meta.name, "ocm:CreateNodePool"); !s.ok()) return s;
  if (Status s =
          np->Create(mp.spec.replicas.value_or(1), mp.spec.template_.spec.version.value_or(""));
      !s.ok()) {
    return s;
  }
  if (imp.status.ready.has_value()) return Status::Ok();
  InfraMachinePool next = imp;
  next.status.ready = false;
  return client_->InfraMachinePools().Patch(imp, &next);
}

// §3.7: nothing when the version is the pool's; else a manual upgrade
// policy whose nextRun is 6 min ahead, or an error when one is scheduled for
// another version.
Status RosaMachinePoolReconciler::ReconcileVersion(const InfraMachinePool& imp,
                                                   const MachinePool& mp, NodePool* np) {
  const std::string version = mp.spec.template_.spec.version.value_or("");
  if (version.empty() || version == np->version()) return Status::Ok();
  if (Status s = Call(imp.meta.name, "ocm:GetHypershiftNodePoolUpgrade"); !s.ok()) return s;
  if (!np->upgrade()) {
    if (Status s = Call(imp.meta.name, "ocm:ScheduleNodePoolUpgrade"); !s.ok()) return s;
    return np->ScheduleUpgrade(version, clock_->Now() + kUpgradeLeadTime);
  }
  if (np->upgrade()->version != version) {
    return Status::Conflict("there is already a " + np->upgrade()->state + " upgrade to version " +
                            np->upgrade()->version);
  }
  return Status::Ok();
}

// rctl:314-340: DeleteNodePool if found, then the finalizer goes at once.
Status RosaMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp, NodePool* np) {
  if (Status s = Call(imp.meta.name, "ocm:GetNodePool"); !s.ok()) return s;
  if (np->exists()) {
    if (Status s = Call(imp.meta.name, "ocm:DeleteNodePool"); !s.ok()) return s;
    if (Status s = np->Delete(); !s.ok()) return s;
  }
  if (!HasFinalizer(imp.meta, kRosaMachinePoolFinalizer)) return Status::Ok();
  InfraMachinePool next = imp;
  std::erase(next.meta.finalizers, std::string(kRosaMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

Status RosaMachinePoolReconciler::Call(const std::string& pool, const char* api) {
  return RosaCall(throttle_, rec_, clock_->Now(), pool, api);
}

}  // namespace mpsim::rosa
