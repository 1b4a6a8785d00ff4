#include "models/aks/azuremanagedmachinepool_reconciler.h"

#include <algorithm>

#include "models/aks/provider_id.h"
#include "models/common/provider_watches.h"

namespace mpsim::aks {

AzureManagedMachinePoolReconciler::AzureManagedMachinePoolReconciler(
    Client* client, const Clock* clock, Recorder* rec, ArmBuckets* arm,
    std::map<std::string, Pool> pools)
    : client_(client), clock_(clock), rec_(rec), arm_(arm), pools_(std::move(pools)) {}

// ctl:101-124: its own kind and every MachinePool update, with no change
// predicate; nothing watches the ASO resource, the scale set or the Nodes.
void AzureManagedMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kAzureManagedMachinePoolKind);
}

// The coalescing reconciler (pkg/coalescing/reconciler.go:91-119): within
// 10 s of a pass that returned no error the key is only requeued for the
// rest of the window (at least 1 s).
Status AzureManagedMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  auto p = pools_.find(imp->meta.name);
  if (p == pools_.end()) return Status::Invalid("no AKS agent pool model for " + req.key.String());
  PoolState& st = state_[imp->meta.name];
  const Time now = clock_->Now();
  if (st.last_clean >= 0 && now < st.last_clean + kCapzDebounce) {
    result->requeue_after = std::max(st.last_clean + kCapzDebounce - now, kSecond);
    return Status::Ok();
  }
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  Status s = imp->meta.deletion_timestamp ? ReconcileDelete(*imp, p->second, result)
                                          : ReconcileNormal(*imp, *mp, p->second, result);
  if (s.ok()) st.last_clean = now;
  return s;
}

// reconcileNormal (ctl:248-300): a terminal error ends the pass with no
// requeue, a transient one with its delay, any other is returned (backoff).
Status AzureManagedMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& imp,
                                                          const MachinePool& mp, const Pool& pool,
                                                          Result* result) {
  if (!HasFinalizer(imp.meta, kAzureManagedMachinePoolFinalizer)) {
    InfraMachinePool with = imp;
    with.meta.finalizers.push_back(kAzureManagedMachinePoolFinalizer);
    if (Status s = client_->InfraMachinePools().Patch(imp, &with); !s.ok()) return s;
  }
  const ServiceResult r = ReconcileAgentPool(mp, pool);
  if (r.done()) return ReconcileVmss(imp, pool, result);
  if (Status s = WriteStatus(imp, false, nullptr); !s.ok()) return s;
  switch (r.kind) {
    case ServiceResult::Kind::kTerminal:
      return Status::Ok();
    case ServiceResult::Kind::kNotDone:
    case ServiceResult::Kind::kTransient:
      result->requeue_after = r.requeue_after;
      return Status::Ok();
    default:
      return Status::Internal(r.message);
  }
}

ServiceResult AzureManagedMachinePoolReconciler::ReconcileAgentPool(const MachinePool& mp,
                                                                    const Pool& pool) {
  const AsoAgentPoolSpec desired = BuildAgentPoolSpec(
      mp.spec.replicas, mp.spec.template_.spec.version, pool.opts->autoscaling, *pool.aso);
  ServiceResult r = CreateOrUpdateAgentPool(pool.aso, desired);
  if (!r.done()) return r;
  if (Status s = PostCreateOrUpdate(mp, pool); !s.ok()) {
    return {ServiceResult::Kind::kError, 0, s.message()};
  }
  return r;
}

Status AzureManagedMachinePoolReconciler::PostCreateOrUpdate(const MachinePool& mp,
                                                             const Pool& pool) {
  MachinePool next = mp;
  if (pool.aso->status_enable_auto_scaling()) {
    next.meta.annotations[kReplicasManagedByAnnotation] = "true";
    if (pool.aso->status_count()) next.spec.replicas = pool.aso->status_count();
  } else {
    next.meta.annotations.erase(kReplicasManagedByAnnotation);
  }
  if (next == mp) return Status::Ok();
  return client_->MachinePools().Patch(mp, &next);
}

// A list error is returned as an error; no scale set tagged with the pool's
// name is a transient error (20 s). Every VM is listed, in any state.
Status AzureManagedMachinePoolReconciler::ReconcileVmss(const InfraMachinePool& imp,
                                                        const Pool& pool, Result* result) {
  const auto failed = [&](const std::string& message) {
    if (Status s = WriteStatus(imp, false, nullptr); !s.ok()) return s;
    return Status::Throttled(message);
  };
  if (Call(imp, "compute:virtualMachineScaleSets.list") > 0) {
    return failed("failed to list VMSS: 429 Too Many Requests");
  }
  if (!pool.vmss->exists() || pool.vmss->pool_name_tag() != pool.opts->agent_pool_name) {
    if (Status s = WriteStatus(imp, false, nullptr); !s.ok()) return s;
    result->requeue_after = kVmssNotFoundRequeue;
    return Status::Ok();
  }
  if (Call(imp, "compute:virtualMachineScaleSetVMs.list") > 0) {
    return failed("failed to list instances: 429 Too Many Requests");
  }
  PoolState& st = state_[imp.meta.name];
  if (st.ids_revision != pool.vmss->revision()) {
    if (Status s = BuildIds(pool, st); !s.ok()) return s;
  }
  return WriteStatus(imp, true, &st.ids);
}

// rec:158-169: each ID through ConvertResourceGroupNameToLower, then sorted.
// An ID equal to the Node's keeps the Node's buffer.
Status AzureManagedMachinePoolReconciler::BuildIds(const Pool& pool, PoolState& st) {
  st.ids.clear();
  st.ids.reserve(pool.vmss->vms().size());
  for (const auto& [id, vm] : pool.vmss->vms()) {
    std::string pid;
    if (Status s = ProviderIdOf(pool.vmss->ResourceId(vm), &pid); !s.ok()) return s;
    st.ids.push_back(pid == vm.node_provider_id.str() ? vm.node_provider_id
                                                      : SharedString::Pinned(std::move(pid)));
  }
  std::sort(st.ids.begin(), st.ids.end(),
            [](const SharedString& a, const SharedString& b) { return a.str() < b.str(); });
  st.ids_revision = pool.vmss->revision();
  return Status::Ok();
}

Status AzureManagedMachinePoolReconciler::WriteStatus(const InfraMachinePool& imp, bool ready,
                                                      const std::vector<SharedString>* ids) {
  InfraMachinePool next = imp;
  next.status.ready = ready;
  if (ids != nullptr) {
    const bool same = imp.spec.provider_id_list &&
                      imp.spec.provider_id_list->size() == ids->size() &&
                      std::equal(ids->begin(), ids->end(), imp.spec.provider_id_list->begin());
    if (!same) next.spec.provider_id_list = *ids;
    next.status.replicas = static_cast<int32_t>(ids->size());
    next.status.initialization_provisioned = true;
  }
  if (next == imp) return Status::Ok();
  if (Status s = client_->InfraMachinePools().Patch(imp, &next); !s.ok()) return s;
  const bool was = imp.status.ready.value_or(false);
  if (was != ready) {
    rec_->Change(clock_->Now(), kAzureManagedMachinePoolKind, imp.meta.name, "status.ready",
                 was ? "true" : "false", ready ? "true" : "false", imp.meta.name);
  }
  return Status::Ok();
}

// ctl:302-368 with the Cluster alive: the ASO resource is deleted, 20 s at a
// time until it is gone, then the finalizer goes.
Status AzureManagedMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp,
                                                          const Pool& pool, Result* result) {
  if (pool.aso->exists()) {
    pool.aso->Delete();
    result->requeue_after = kAsoRequeue;
    return Status::Ok();
  }
  if (!HasFinalizer(imp.meta, kAzureManagedMachinePoolFinalizer)) return Status::Ok();
  InfraMachinePool next = imp;
  std::erase(next.meta.finalizers, std::string(kAzureManagedMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

Duration AzureManagedMachinePoolReconciler::Call(const InfraMachinePool& imp, const char* api) {
  rec_->ProviderApiCall(imp.meta.name, api);
  const Duration wait = arm_->reads.Take(clock_->Now());
  if (wait > 0) rec_->Fault(clock_->Now(), imp.meta.name, imp.meta.name, "TooManyRequests");
  return wait;
}

}  // namespace mpsim::aks
