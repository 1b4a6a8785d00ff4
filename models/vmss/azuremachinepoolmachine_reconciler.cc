#include "models/vmss/azuremachinepoolmachine_reconciler.h"

#include <algorithm>

#include "models/vmss/arm_call.h"
#include "models/vmss/azuremachinepool_reconciler.h"
#include "models/vmss/capz_timers.h"

namespace mpsim::vmss {
namespace {

// azuremachinepoolmachine_controller.go and util/reconciler/defaults.go
// (docs/reference/providers.md §2.4, §2.6.2).
constexpr Duration kNotReadyRequeue = 30 * kSecond;  // until ready and Succeeded

// The AzureMachinePool that made the machine: its (non-controller) owner.
const OwnerReference* PoolOwner(const InfraMachine& m) {
  for (const OwnerReference& r : m.meta.owner_references) {
    if (r.kind == kAzureMachinePoolKind) return &r;
  }
  return nullptr;
}

}  // namespace

std::string MachineNameFor(const std::string& pool, uint64_t instance_id) {
  return pool + "-" + std::to_string(instance_id);
}

std::optional<uint64_t> InstanceIdOf(const std::string& name) {
  const size_t dash = name.rfind('-');
  if (dash == std::string::npos || dash + 1 == name.size() || name.size() - dash > 20) {
    return std::nullopt;
  }
  uint64_t id = 0;
  for (size_t i = dash + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    id = id * 10 + static_cast<uint64_t>(name[i] - '0');
  }
  return id;
}

AzureMachinePoolMachineReconciler::AzureMachinePoolMachineReconciler(
    Client* client, const Clock* clock, Recorder* rec, ArmThrottle* throttle,
    std::map<std::string, VirtualMachineScaleSet*> sets)
    : client_(client), clock_(clock), rec_(rec), throttle_(throttle), sets_(std::move(sets)) {}

// The watch on AzureMachinePool model changes is left out: it only
// refreshes latestModelApplied, which the pool's own pass reads from the VMs.
void AzureMachinePoolMachineReconciler::Setup(Builder* b) {
  b->WatchInfraMachines([](const WatchEvent<InfraMachine>& e) {
    if (e.obj.kind != kAzureMachinePoolMachineKind) return std::vector<Request>{};
    return std::vector<Request>{{e.obj.meta.Key()}};
  });
  b->WatchMachines([](const WatchEvent<Machine>& e) {
    if (e.obj.spec.infrastructure_ref.kind != kAzureMachinePoolMachineKind) {
      return std::vector<Request>{};
    }
    return std::vector<Request>{{{e.obj.meta.ns, e.obj.spec.infrastructure_ref.name}}};
  });
}

// Wrapped in CAPZ's coalescing reconciler, as the AzureMachinePool's is.
Status AzureMachinePoolMachineReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachine> ampm = client_->InfraMachines().GetShared(req.key);
  if (ampm == nullptr) {
    last_clean_.erase(req.key);
    return Status::Ok();
  }
  if (ampm->kind != kAzureMachinePoolMachineKind) return Status::Ok();
  const Time now = clock_->Now();
  auto clean = last_clean_.find(req.key);
  if (clean != last_clean_.end() && now < clean->second + kDebounce) {
    result->requeue_after = std::max(clean->second + kDebounce - now, kSecond);
    return Status::Ok();
  }
  const OwnerReference* pool = PoolOwner(*ampm);
  std::shared_ptr<const InfraMachinePool> amp =
      pool ? client_->InfraMachinePools().GetShared({ampm->meta.ns, pool->name}) : nullptr;
  auto set = pool ? sets_.find(pool->name) : sets_.end();
  if (amp == nullptr || set == sets_.end()) return RemoveFinalizer(*ampm);
  std::shared_ptr<const Machine> owner = client_->Machines().GetShared(ampm->meta.Key());
  if (owner == nullptr) {  // core has not made the Machine yet: wait, no requeue
    return amp->meta.deletion_timestamp ? RemoveFinalizer(*ampm) : Status::Ok();
  }
  Status s = ampm->meta.deletion_timestamp
                 ? ReconcileDelete(*ampm, *amp, *set->second, result)
                 : ReconcileNormal(*ampm, *amp, *owner, *set->second, result);
  if (s.ok()) last_clean_[req.key] = now;
  return s;
}

// GET the VM; status.ready is its Node's Ready condition; a VM going away on
// its own (Deleting) takes the owner Machine with it.
Status AzureMachinePoolMachineReconciler::ReconcileNormal(const InfraMachine& ampm,
                                                          const InfraMachinePool& amp,
                                                          const Machine& owner,
                                                          VirtualMachineScaleSet& vmss,
                                                          Result* result) {
  if (amp.status.failure_reason) return Status::Ok();
  // Counted but not charged to the read bucket: one GET per machine every
  // 30 s would outrun its unverified 25/s refill from about 750 VMs on, a
  // storm of 429s that no report of CAPZ describes (docs/architecture.md).
  rec_->ProviderApiCall(amp.meta.name, "compute:virtualMachineScaleSetVMs.get");
  const std::optional<uint64_t> id = InstanceIdOf(ampm.meta.name);
  auto vm = id ? vmss.vms().find(*id) : vmss.vms().end();
  if (vm == vmss.vms().end()) {  // transient "instance does not exist yet"
    result->requeue_after = kNotReadyRequeue;
    return Status::Ok();
  }
  bool ready = false;
  if (Status s = NodeReady(owner, ampm, vm->second, &ready); !s.ok()) return s;
  if (ampm.status.ready.value_or(false) != ready) {
    InfraMachine next = ampm;
    next.status.ready = ready;
    if (Status s = client_->InfraMachines().Patch(ampm, &next); !s.ok()) return s;
  }
  if (vm->second.state == VmState::kDeleting && !owner.meta.deletion_timestamp) {
    Status s = client_->Machines().Delete(owner.meta.Key());
    if (!s.ok() && !s.IsNotFound()) return s;
  }
  if (!ready || vm->second.state != VmState::kSucceeded) result->requeue_after = kNotReadyRequeue;
  return Status::Ok();
}

// Core has drained the owner Machine's Node and deleted this object: DELETE
// the VM (async, polled every 15 s), then let go. A pool being deleted takes
// its VMs with the scale set.
Status AzureMachinePoolMachineReconciler::ReconcileDelete(const InfraMachine& ampm,
                                                          const InfraMachinePool& amp,
                                                          VirtualMachineScaleSet& vmss,
                                                          Result* result) {
  if (amp.meta.deletion_timestamp) return RemoveFinalizer(ampm);
  const std::optional<uint64_t> id = InstanceIdOf(ampm.meta.name);
  auto vm = id ? vmss.vms().find(*id) : vmss.vms().end();
  if (vm == vmss.vms().end()) return RemoveFinalizer(ampm);
  if (vm->second.state != VmState::kDeleting) {
    if (Duration wait = ArmCall(throttle_, rec_, clock_->Now(), amp.meta.name, ampm.meta.name,
                                "compute:virtualMachineScaleSetVMs.delete", true);
        wait > 0) {
      result->requeue_after = wait;
      return Status::Ok();
    }
    vmss.DeleteInstance(*id);
  }
  result->requeue_after = kAsyncRequeue;
  return Status::Ok();
}

Status AzureMachinePoolMachineReconciler::RemoveFinalizer(const InfraMachine& ampm) {
  if (!HasFinalizer(ampm.meta, kAzureMachinePoolMachineFinalizer)) return Status::Ok();
  InfraMachine next = ampm;
  std::erase(next.meta.finalizers, std::string(kAzureMachinePoolMachineFinalizer));
  return client_->InfraMachines().Patch(ampm, &next);
}

// getNodeByProviderID compares the Node's spec.providerID with the machine's
// exactly (azure/scope/machinepoolmachine.go, docs/reference/providers.md §2.5), so a Node
// that keeps the resource group's case is never found (CAPZ #2817). The
// simulated Node is named after its VM, which spares listing every Node.
Status AzureMachinePoolMachineReconciler::NodeReady(const Machine& owner, const InfraMachine& ampm,
                                                    const VirtualMachine& vm, bool* ready) {
  *ready = false;
  ObjectClient<Node>* nodes = nullptr;
  Status s = client_->WorkloadNodes({owner.meta.ns, owner.spec.cluster_name}, &nodes);
  if (!s.ok()) return s;
  std::shared_ptr<const Node> node = nodes->GetShared({"", vm.name});
  if (node == nullptr || node->spec.provider_id != ampm.spec.provider_id.value_or("")) {
    return Status::Ok();
  }
  *ready = IsConditionTrue(node->status.conditions, "Ready");
  return Status::Ok();
}

}  // namespace mpsim::vmss
