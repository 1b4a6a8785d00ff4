#include "models/oci/ocimachinepool_reconciler.h"

#include <algorithm>

#include "models/common/bootstrap_data.h"
#include "models/common/provider_watches.h"

namespace mpsim::oci {
namespace {

constexpr const char* kInstancePoolReady = "InstancePoolReady";
constexpr const char* kLaunchTemplateReady = "LaunchTemplateReady";

void MarkFalse(InfraMachinePool* imp, const char* type, const char* reason, const char* severity,
               Time now) {
  SetCondition(&imp->status.conditions,
               {.type = type, .status = "False", .reason = reason, .severity = severity}, now);
}

void MarkTrue(InfraMachinePool* imp, const char* type, Time now) {
  SetCondition(&imp->status.conditions, {.type = type, .status = "True"}, now);
}

std::string SpecField(const InfraMachinePool& imp, const char* key) {
  auto it = imp.spec.provider_spec.find(key);
  return it == imp.spec.provider_spec.end() ? "" : it->second;
}

}  // namespace

OciMachinePoolReconciler::OciMachinePoolReconciler(Client* client, const Clock* clock,
                                                   Recorder* rec,
                                                   std::map<std::string, InstancePool*> pools)
    : client_(client), clock_(clock), rec_(rec), pools_(std::move(pools)) {}

// For(&OCIMachinePool{}) with no predicate, so status patches wake it too,
// and MachinePools mapped to their infrastructureRef (ctl SetupWithManager).
void OciMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kOciMachinePoolKind, PoolStatusUpdates::kKept);
}

Status OciMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();  // "machine pool does not exist"
  auto p = pools_.find(imp->meta.name);
  if (p == pools_.end()) return Status::Invalid("no instance pool model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();  // event OwnerRefNotSet
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, p->second, result);
  return ReconcileNormal(*imp, *mp, p->second, result);
}

// reconcileNormal (ctl:291-417). The Cluster's infrastructure is always
// provisioned in the model, so that early return never happens.
Status OciMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp,
                                                 InstancePool* pool, Result* result) {
  if (imp.status.failure_reason || imp.status.failure_message) return Status::Ok();  // HasFailed
  InfraMachinePool base = imp;
  if (!HasFinalizer(imp.meta, kOciMachinePoolFinalizer)) {
    base.meta.finalizers.push_back(kOciMachinePoolFinalizer);
    if (Status s = client_->InfraMachinePools().Patch(imp, &base); !s.ok()) return s;
  }
  InfraMachinePool next = base;
  const Time now = clock_->Now();
  if (!mp.spec.template_.spec.bootstrap.data_secret_name) {
    MarkFalse(&next, kInstancePoolReady, "WaitingForBootstrapData", "Info", now);
    return Close(base, &next);
  }
  if (Status s = ReconcileInstanceConfiguration(&next, mp, pool); !s.ok()) return s;
  MarkTrue(&next, kLaunchTemplateReady, now);
  Call(imp, "ListInstancePools");
  if (pool->state() == InstancePoolState::kAbsent) {
    Call(imp, "CreateInstancePool");
    // CreateInstancePool: MachinePool.spec.replicas, or 1 (mp:795-798).
    Status s =
        pool->Create(mp.spec.replicas.value_or(1), SpecField(next, kInstanceConfigurationIdField));
    if (!s.ok()) {
      MarkFalse(&next, kInstancePoolReady, "InstancePoolProvisionFailed", "Error", now);
      Close(base, &next);
      return s;
    }
    return Close(base, &next);
  }
  next.spec.provider_spec[kProviderIdField] = "oci://" + pool->ocid();
  next.spec.provider_spec[kOcidField] = pool->ocid();
  switch (pool->state()) {
    case InstancePoolState::kProvisioning:
    case InstancePoolState::kScaling:
      MarkFalse(&next, kInstancePoolReady, "InstancePoolNotReady", "Info", now);
      result->requeue_after = kOciNotReadyRequeue;
      return Close(base, &next);
    case InstancePoolState::kRunning:
      MarkTrue(&next, kInstancePoolReady, now);
      if (Status s = ReconcileRunning(&next, mp, pool); !s.ok()) {
        Close(base, &next);
        return s;
      }
      // Every 5 minutes, to pick up what the instance-pool service changed
      // on its own (ctl:414-416).
      result->requeue_after = kOciRunningRequeue;
      return Close(base, &next);
    default: {
      const std::string state = InstancePoolStateName(pool->state());
      MarkFalse(&next, kInstancePoolReady, "InstancePoolProvisionFailed", "Error", now);
      next.status.failure_reason = "CreateError";
      next.status.failure_message = "Instance Pool status \"" + state + "\" is unexpected";
      Close(base, &next);
      return Status::Invalid("instance pool has invalid lifecycle state " + state);
    }
  }
}

// providerIDList of the RUNNING instances (ctl:377-383; mp:260-292), the
// autoscaler's size copied back, UpdatePool, then replicas and ready.
// OCIMachinePoolMachines are not modelled (README).
Status OciMachinePoolReconciler::ReconcileRunning(InfraMachinePool* next, const MachinePool& mp,
                                                  InstancePool* pool) {
  Call(*next, "ListInstancePoolInstances");
  const ProviderIDList& ids = pool->instances().UpIds();
  next->spec.provider_id_list = ids;
  if (Status s = SyncReplicas(mp, *pool); !s.ok()) return s;
  if (Status s = UpdatePool(*next, mp, pool); !s.ok()) return s;
  next->status.replicas = static_cast<int32_t>(ids.size());
  next->status.ready = true;
  next->status.initialization_provisioned = true;
  return Status::Ok();
}

Status OciMachinePoolReconciler::SyncReplicas(const MachinePool& mp, const InstancePool& pool) {
  if (!mp.meta.annotations.count(kReplicasManagedBy)) return Status::Ok();
  if (mp.spec.replicas == pool.size()) return Status::Ok();
  MachinePool next = mp;
  next.spec.replicas = pool.size();
  return client_->MachinePools().Patch(mp, &next);
}

// instancePoolNeedsUpdates (mp:856-872): the size unless the autoscaler
// owns it, or the configuration. The size sent is spec.replicas, or 0.
Status OciMachinePoolReconciler::UpdatePool(const InfraMachinePool& next, const MachinePool& mp,
                                            InstancePool* pool) {
  const std::string& config = SpecField(next, kInstanceConfigurationIdField);
  const int32_t replicas = mp.spec.replicas.value_or(0);
  const bool size_differs =
      replicas != pool->size() && !mp.meta.annotations.count(kReplicasManagedBy);
  if (!size_differs && config == pool->instance_configuration_id()) return Status::Ok();
  Call(next, "UpdateInstancePool");
  return pool->Update(replicas, config);
}

// A changed launch spec or user_data is a new configuration, never an edit
// of the current one (docs/reference/oci-scaleway.md §1.4, mp:430-589).
Status OciMachinePoolReconciler::ReconcileInstanceConfiguration(InfraMachinePool* next,
                                                                const MachinePool& mp,
                                                                InstancePool* pool) {
  std::string data;
  if (Status s = GetBootstrapData(client_, next->meta.ns, mp, &data); !s.ok()) return s;
  const std::string hash = DataHash(data);
  const std::string version = mp.spec.template_.spec.version.value_or("");
  const std::string current = SpecField(*next, kInstanceConfigurationIdField);
  if (!current.empty()) {
    Call(*next, "GetInstanceConfiguration");
    const InstanceConfiguration* ic = pool->GetInstanceConfiguration(current);
    if (ic != nullptr && ic->version == version && ic->data_hash == hash) return Status::Ok();
  }
  Call(*next, "CreateInstanceConfiguration");
  next->spec.provider_spec[kInstanceConfigurationIdField] =
      pool->CreateInstanceConfiguration(version, hash).id;
  return Status::Ok();
}

// reconcileDelete (ctl:419-480). The instance configurations are not
// modelled past the pool, so deleting them is one counted call.
Status OciMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp, InstancePool* pool,
                                                 Result* result) {
  InfraMachinePool next = imp;
  const Time now = clock_->Now();
  Call(imp, "ListInstancePools");
  switch (pool->state()) {
    case InstancePoolState::kAbsent:
      next.status.ready = false;
      MarkFalse(&next, kInstancePoolReady, "InstancePoolNotFound", "Warning", now);
      break;
    case InstancePoolState::kTerminating:
      result->requeue_after = kOciDeleteRequeue;
      return Status::Ok();
    case InstancePoolState::kTerminated:
      next.status.ready = false;
      MarkFalse(&next, kInstancePoolReady, "InstancePoolDeletionInProgress", "Warning", now);
      break;
    default:
      Call(imp, "TerminateInstancePool");
      if (Status s = pool->Terminate(); !s.ok()) return s;
      result->requeue_after = kOciDeleteRequeue;
      return Status::Ok();
  }
  Call(imp, "DeleteInstanceConfiguration");
  std::erase(next.meta.finalizers, std::string(kOciMachinePoolFinalizer));
  return Close(imp, &next);
}

Status OciMachinePoolReconciler::Close(const InfraMachinePool& base, InfraMachinePool* next) {
  if (*next == base) return Status::Ok();
  return client_->InfraMachinePools().Patch(base, next);
}

void OciMachinePoolReconciler::Call(const InfraMachinePool& imp, const char* api) {
  rec_->ProviderApiCall(imp.meta.name, std::string("oci:") + api);
}

}  // namespace mpsim::oci
