#include "models/oci/ocimanagedmachinepool_reconciler.h"

#include <algorithm>

#include "models/common/provider_watches.h"
#include "models/oci/ocimachinepool_reconciler.h"

namespace mpsim::oci {
namespace {

constexpr const char* kNodePoolReady = "NodePoolReady";

void SetReady(InfraMachinePool* imp, const char* status, const char* reason, const char* severity,
              Time now) {
  SetCondition(&imp->status.conditions,
               {.type = kNodePoolReady, .status = status, .reason = reason, .severity = severity},
               now);
}

}  // namespace

OciManagedMachinePoolReconciler::OciManagedMachinePoolReconciler(
    Client* client, const Clock* clock, Recorder* rec, std::map<std::string, NodePool*> pools)
    : client_(client), clock_(clock), rec_(rec), pools_(std::move(pools)) {}

// For(&OCIManagedMachinePool{}) with no predicate, as OCIMachinePool's, and
// MachinePools mapped to their infrastructureRef.
void OciManagedMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kOciManagedMachinePoolKind, PoolStatusUpdates::kKept);
}

Status OciManagedMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  auto p = pools_.find(imp->meta.name);
  if (p == pools_.end()) return Status::Invalid("no node pool model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();  // event OwnerRefNotSet
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, p->second, result);
  return ReconcileNormal(*imp, *mp, p->second, result);
}

// reconcileNormal (mctl:257-357). The model has no OCIManagedControlPlane:
// the Cluster's infrastructure and the control plane are always ready, so
// those early returns never happen.
Status OciManagedMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& imp,
                                                        const MachinePool& mp, NodePool* pool,
                                                        Result* result) {
  InfraMachinePool next = imp;
  if (!HasFinalizer(next.meta, kOciManagedMachinePoolFinalizer)) {
    next.meta.finalizers.push_back(kOciManagedMachinePoolFinalizer);  // persisted by Close
  }
  const Time now = clock_->Now();
  Call(imp, "ListNodePools");
  if (pool->state() == NodePoolState::kAbsent) {
    Call(imp, "CreateNodePool");
    if (Status s =
            pool->Create(mp.spec.replicas.value_or(1), mp.spec.template_.spec.version.value_or(""));
        !s.ok()) {
      Close(imp, &next);
      return s;
    }
    Call(imp, "GetWorkRequest");
    Call(imp, "GetNodePool");  // the same pass goes on with the new pool (mctl:280-289)
  }
  next.spec.provider_spec[kProviderIdField] = "oci://" + pool->ocid();
  next.spec.provider_spec[kNodePoolIdField] = pool->ocid();
  switch (pool->state()) {
    case NodePoolState::kCreating:
      SetReady(&next, "False", "NodePoolNotReady", "Info", now);
      result->requeue_after = kOkeBusyRequeue;
      return Close(imp, &next);
    case NodePoolState::kUpdating:
      result->requeue_after = kOkeBusyRequeue;  // conditions and ready left as they are
      return Close(imp, &next);
    case NodePoolState::kActive:
      if (Status s = ReconcileActive(&next, mp, pool, result); !s.ok()) {
        Close(imp, &next);
        return s;
      }
      return Close(imp, &next);
    default: {
      const std::string state = NodePoolStateName(pool->state());
      SetReady(&next, "False", "NodePoolProvisionFailed", "Error", now);
      Close(imp, &next);
      return Status::Invalid("Node Pool status " + state + " is unexpected");
    }
  }
}

// providerIDList: the bare OCIDs of the ACTIVE nodes (mmp:140-149), then
// replicas and ready, then the update check (mctl:322-348).
Status OciManagedMachinePoolReconciler::ReconcileActive(InfraMachinePool* next,
                                                        const MachinePool& mp, NodePool* pool,
                                                        Result* result) {
  const ProviderIDList& ids = pool->nodes().UpIds();
  next->spec.provider_id_list = ids;
  next->status.replicas = static_cast<int32_t>(ids.size());
  next->status.ready = true;
  next->status.initialization_provisioned = true;
  SetReady(next, "True", "", "", clock_->Now());
  bool sent = false;
  if (Status s = UpdateNodePool(*next, mp, pool, &sent); !s.ok()) return s;
  result->requeue_after = sent ? kOkeBusyRequeue : kOkeActiveRequeue;
  return Status::Ok();
}

// mpsim takes the version from the MachinePool, as a user keeps
// OCIManagedMachinePool.spec.version equal to it (README).
Status OciManagedMachinePoolReconciler::UpdateNodePool(const InfraMachinePool& imp,
                                                       const MachinePool& mp, NodePool* pool,
                                                       bool* sent) {
  const std::string version = mp.spec.template_.spec.version.value_or("");
  int32_t size = pool->size();
  if (!mp.meta.annotations.count(kReplicasManagedBy)) size = mp.spec.replicas.value_or(size);
  if (version == pool->version() && size == pool->size()) return Status::Ok();
  Call(imp, "UpdateNodePool");
  *sent = true;
  return pool->Update(size, version);
}

// reconcileDelete (mctl:411-460), with the conditions the upstream tests
// "node pool to be deleted", "not found", "deleting" and "deleted" assert.
Status OciManagedMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp, NodePool* pool,
                                                        Result* result) {
  InfraMachinePool next = imp;
  const Time now = clock_->Now();
  Call(imp, "GetNodePool");
  switch (pool->state()) {
    case NodePoolState::kAbsent:
      SetCondition(&next.status.conditions, {.type = "NodePoolNotFound", .status = "True"}, now);
      break;
    case NodePoolState::kDeleted:
      SetReady(&next, "False", "NodePoolDeleted", "Warning", now);
      break;
    case NodePoolState::kDeleting:
      SetReady(&next, "False", "DeletionInProgress", "Warning", now);
      result->requeue_after = kOkeBusyRequeue;
      return Close(imp, &next);
    default:
      Call(imp, "DeleteNodePool");
      if (Status s = pool->Delete(); !s.ok()) return s;
      SetReady(&next, "False", "NodePoolDeletionInProgress", "Warning", now);
      result->requeue_after = kOkeBusyRequeue;
      return Close(imp, &next);
  }
  next.status.ready = false;
  std::erase(next.meta.finalizers, std::string(kOciManagedMachinePoolFinalizer));
  return Close(imp, &next);
}

Status OciManagedMachinePoolReconciler::Close(const InfraMachinePool& base,
                                              InfraMachinePool* next) {
  if (*next == base) return Status::Ok();
  return client_->InfraMachinePools().Patch(base, next);
}

void OciManagedMachinePoolReconciler::Call(const InfraMachinePool& imp, const char* api) {
  rec_->ProviderApiCall(imp.meta.name, std::string("oke:") + api);
}

}  // namespace mpsim::oci
