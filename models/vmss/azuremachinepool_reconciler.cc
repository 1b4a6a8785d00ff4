#include "models/vmss/azuremachinepool_reconciler.h"

#include <algorithm>

#include "models/common/bootstrap_data.h"
#include "models/common/provider_watches.h"
#include "models/vmss/arm_call.h"
#include "models/vmss/azuremachinepoolmachine_reconciler.h"
#include "models/vmss/capz_timers.h"
#include "models/vmss/deployment_strategy.h"

namespace mpsim::vmss {
namespace {

// The AMP controller (docs/reference/providers.md §2.4).
constexpr Duration kNotConverged = 30 * kSecond;  // NeedsRequeue

}  // namespace

AzureMachinePoolReconciler::AzureMachinePoolReconciler(Client* client, const Clock* clock,
                                                       Recorder* rec, ArmThrottle* throttle,
                                                       NodesReady nodes_ready,
                                                       std::map<std::string, Pool> pools,
                                                       uint64_t seed)
    : client_(client),
      clock_(clock),
      rec_(rec),
      throttle_(throttle),
      nodes_ready_(std::move(nodes_ready)),
      pools_(std::move(pools)),
      random_policy_rng_(StreamFor(seed, "vmss/capz/deletePolicy")) {}

AzureMachinePoolReconciler::NodesReady AzureMachinePoolReconciler::EachOf(
    std::function<bool(const std::string& instance)> one) {
  return [one = std::move(one)](const std::vector<std::string_view>& instances) {
    std::vector<char> out;
    out.reserve(instances.size());
    for (std::string_view name : instances) out.push_back(one(std::string(name)));
    return out;
  };
}

// MachinePoolMachineHasStateOrVersionChange: a machine made, deleted or
// turned (not) ready wakes its pool (exp/controllers/azuremachinepool_controller.go).
// reconcileNormal also watches the pool's bootstrap config (:291-310): a
// change of it, each token rotation included, wakes the AzureMachinePool
// named after its MachinePool owner (BootstrapConfigToInfrastructureMapFunc,
// exp/controllers/helpers.go:375-432; docs/reference/providers.md §2.6.1).
// Upstream starts that watch at the first reconcile; pools of other
// providers have no AzureMachinePool, which CAPZ finds NotFound.
void AzureMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kAzureMachinePoolKind);
  b->WatchBootstrapConfigs([this](const WatchEvent<BootstrapConfig>& e) {
    std::vector<Request> out;
    const OwnerReference* owner = nullptr;
    for (const OwnerReference& r : e.obj.meta.owner_references) {
      if (r.kind == "MachinePool") owner = &r;
      if (owner != nullptr) break;
    }
    if (owner != nullptr && pools_.count(owner->name))
      out.push_back({{e.obj.meta.ns, owner->name}});
    return out;
  });
  b->WatchInfraMachines([](const WatchEvent<InfraMachine>& e) {
    std::vector<Request> out;
    if (e.obj.kind != kAzureMachinePoolMachineKind) return out;
    if (e.old != nullptr && e.old->status.ready == e.obj.status.ready &&
        e.old->meta.deletion_timestamp == e.obj.meta.deletion_timestamp) {
      return out;
    }
    for (const OwnerReference& r : e.obj.meta.owner_references) {
      if (r.kind == kAzureMachinePoolKind) out.push_back({{e.obj.meta.ns, r.name}});
    }
    return out;
  });
}

// Wrapped in CAPZ's coalescing reconciler (pkg/coalescing/reconciler.go):
// within 10 s of a pass that returned no error, whatever its requeue, the
// key is not processed, only requeued for the rest of the window (at least
// 1 s).
Status AzureMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  auto p = pools_.find(imp->meta.name);
  if (p == pools_.end()) return Status::Invalid("no scale set model for " + req.key.String());
  PoolState& st = state_[imp->meta.name];
  const Time now = clock_->Now();
  if (st.last_clean >= 0 && now < st.last_clean + kDebounce) {
    result->requeue_after = std::max(st.last_clean + kDebounce - now, kSecond);
    return Status::Ok();
  }
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, p->second, result);
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  Status s = ReconcileNormal(*imp, *mp, p->second, result);
  if (s.ok()) st.last_clean = now;
  return s;
}

Status AzureMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& imp,
                                                   const MachinePool& mp, Pool& pool,
                                                   Result* result) {
  if (imp.status.failure_reason) return Status::Ok();
  const bool machines = pool.opts.machine_pool_machines;
  const std::optional<std::string> kind =
      machines ? std::optional<std::string>(kAzureMachinePoolMachineKind) : std::nullopt;
  if (!HasFinalizer(imp.meta, kAzureMachinePoolFinalizer) ||
      imp.status.infrastructure_machine_kind != kind) {
    InfraMachinePool with = imp;
    if (!HasFinalizer(imp.meta, kAzureMachinePoolFinalizer)) {
      with.meta.finalizers.push_back(kAzureMachinePoolFinalizer);
    }
    with.status.infrastructure_machine_kind = kind;  // core's cue to make Machines
    if (Status s = client_->InfraMachinePools().Patch(imp, &with); !s.ok()) return s;
  }
  if (!mp.spec.template_.spec.bootstrap.data_secret_name) return Status::Ok();
  // InitMachinePoolCache's GetBootstrapData, an uncached read of the secret.
  std::string bootstrap_data;
  if (Status s = GetBootstrapData(client_, imp.meta.ns, mp, &bootstrap_data); !s.ok()) return s;
  bool future = false;
  const Status s = ReconcileScaleSet(imp, mp, pool, DataHash(bootstrap_data), &future, result);
  if (result->requeue_after > 0 && !future) return s;  // throttled: the scale set is not known
  const int32_t desired = mp.spec.replicas.value_or(1);
  // Close(): one kind of deletion per pass, none while a future is pending.
  if (machines) {
    if (s.ok()) {
      if (Status a = ApplyPoolMachines(imp, mp, desired, pool); !a.ok()) return a;
    }
    if (Status c = CloseWithMachines(imp, pool); !c.ok()) return c;
  } else {
    if (!future && s.ok()) ApplyMachines(imp, desired, pool, result);
    if (Status c = Close(imp, pool); !c.ok()) return c;
  }
  if (!s.ok()) return s;
  if (future) {
    result->requeue_after = kAsyncRequeue;
  } else if (NeedsRequeue(desired, pool, state_[imp.meta.name])) {
    result->requeue_after =
        std::min(kNotConverged, result->requeue_after > 0 ? result->requeue_after : kNotConverged);
  }
  return Status::Ok();
}

// azure/services/scalesets: the surge capacity and when a PUT is sent
// (docs/reference/providers.md §2.6.3). The custom data's hash tag
// (spec.go:145, :303-309) rides along only on a PUT made for another reason
// (a capacity increase or a new image), and a new hash then makes a new model
// with the same image, which CAPZ does not count as outdated: the 15-minute
// token rotation never rolls VMs (§0.1).
Status AzureMachinePoolReconciler::ReconcileScaleSet(const InfraMachinePool& imp,
                                                     const MachinePool& mp, Pool& pool,
                                                     const std::string& custom_data_hash,
                                                     bool* future, Result* result) {
  VirtualMachineScaleSet* vmss = pool.vmss;
  if (Duration wait = Call(imp, "compute:virtualMachineScaleSets.get", false); wait > 0) {
    result->requeue_after = wait;
    return Status::Ok();
  }
  if (vmss->operation_pending()) {  // the saved poller is not done: OperationNotDone
    *future = true;
    return Status::Ok();
  }
  if (Duration wait = Call(imp, "compute:virtualMachineScaleSetVMs.list", false); wait > 0) {
    result->requeue_after = wait;
    return Status::Ok();
  }
  const MachineSpec& spec = mp.spec.template_.spec;
  const std::string image = spec.version.value_or("");
  const int32_t desired = mp.spec.replicas.value_or(1);
  const bool model_change = !vmss->exists() || vmss->model_version() != image;
  const int32_t listed = static_cast<int32_t>(vmss->vms().size());
  // A Flexible scale set always counts as updated, so only a model change
  // surges it (docs/reference/providers.md §2.6.3, azure/services/scalesets/spec.go).
  const bool updated = pool.opts.orchestration_mode == OrchestrationMode::kFlexible ||
                       vmss->on_latest_model() == listed ||
                       vmss->on_latest_model() == vmss->capacity();
  int32_t capacity = desired;
  const int32_t surge = ScaledValue(pool.opts.max_surge, desired, true);
  if (vmss->exists() && surge > 0 && (model_change || !updated)) capacity += surge;
  if (vmss->exists() && capacity <= vmss->capacity() && !model_change) return Status::Ok();
  if (Duration wait = Call(imp, "compute:virtualMachineScaleSets.createOrUpdate", true); wait > 0) {
    result->requeue_after = wait;
    return Status::Ok();
  }
  if (Status s = vmss->Put(capacity, image, custom_data_hash); !s.ok()) return s;
  *future = vmss->operation_pending();
  return Status::Ok();
}

// CAPZ's NeedsRequeue, plus the machines not yet ready: each of their
// AzureMachinePoolMachines requeues every 30 s and wakes this controller when
// it turns ready (docs/reference/providers.md §2.6.2), which the model folds in here.
bool AzureMachinePoolReconciler::NeedsRequeue(int32_t desired, const Pool& pool,
                                              const PoolState& st) const {
  const VirtualMachineScaleSet& v = *pool.vmss;
  const std::string& state = v.provisioning_state();
  const int32_t listed = static_cast<int32_t>(v.vms().size());
  // With AzureMachinePoolMachines their own 30 s requeue stands in for the
  // last clause, CAPZ's NeedsRequeue has only the first three.
  return (state != "Succeeded" && state != "Failed") || listed != desired ||
         v.on_latest_model() != listed ||
         (!pool.opts.machine_pool_machines && st.ready_machines != listed);
}

Status AzureMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp, Pool& pool,
                                                   Result* result) {
  VirtualMachineScaleSet* vmss = pool.vmss;
  if (vmss->exists()) {
    if (Duration wait = Call(imp, "compute:virtualMachineScaleSets.delete", true); wait > 0) {
      result->requeue_after = wait;
      return Status::Ok();
    }
    vmss->Delete();
    if (vmss->exists()) {
      result->requeue_after = kAsyncRequeue;
      return Status::Ok();
    }
  }
  if (pool.opts.machine_pool_machines) {
    // While machines are left, their owner Machines are deleted; their
    // deletions wake this pool again.
    bool left = false;
    if (Status s = DeleteMachinesLeft(imp, &left); !s.ok() || left) return s;
  }
  if (!HasFinalizer(imp.meta, kAzureMachinePoolFinalizer)) return Status::Ok();
  InfraMachinePool next = imp;
  std::erase(next.meta.finalizers, std::string(kAzureMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

Duration AzureMachinePoolReconciler::Call(const InfraMachinePool& imp, const char* api,
                                          bool write) {
  return ArmCall(throttle_, rec_, clock_->Now(), imp.meta.name, imp.meta.name, api, write);
}

}  // namespace mpsim::vmss
