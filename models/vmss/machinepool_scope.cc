// The AzureMachinePool scope's Close (azure/scope/machinepool.go, docs/reference/providers.md
// §2.6.1 and §2.6.3): deletions through Machines, then ready, replicas and
// the sorted providerIDList, patched onto the AzureMachinePool.
#include <algorithm>

#include "models/vmss/azuremachinepool_reconciler.h"
#include "models/vmss/deployment_strategy.h"

namespace mpsim::vmss {
namespace {

// status.ready from the scale set's provisioningState (the table of §2.6.1).
std::optional<bool> ReadyFor(const std::string& state, FailedBehavior fb, std::optional<bool> was) {
  if (state == "Succeeded" || state == "Updating") return true;  // PR #5537: ready while scaling
  if (state == "Creating" || state == "Deleting") return false;
  if (state == "Failed" && fb == FailedBehavior::kHead) return false;  // PR #6488
  return was;  // v1.26.0 leaves a Failed scale set's ready as it was (CAPZ #5860)
}

// The AzureMachinePool as read, without its providerIDList: the merge patch
// then sends the list only when a new one is set, and no pass copies it.
InfraMachinePool WithoutList(const InfraMachinePool& imp) {
  InfraMachinePool base;
  base.meta = imp.meta;
  base.kind = imp.kind;
  base.spec.provider_spec = imp.spec.provider_spec;
  base.status = imp.status;
  return base;
}

}  // namespace

// Machines whose drain has ended lose their VM (the AzureMachinePoolMachine's
// reconcileDelete); then, unless an operation is pending, this pass's victims.
void AzureMachinePoolReconciler::ApplyMachines(const InfraMachinePool& imp, int32_t desired,
                                               Pool& pool, Result* result) {
  PoolState& st = state_[imp.meta.name];
  const Time now = clock_->Now();
  for (auto it = st.draining.begin(); it != st.draining.end();) {
    if (it->second > now) {
      ++it;
      continue;
    }
    if (Call(imp, "compute:virtualMachineScaleSetVMs.delete", true) > 0) break;
    pool.vmss->DeleteInstance(it->first);
    it = st.draining.erase(it);
  }
  if (pool.vmss->operation_pending()) return;
  for (uint64_t id : Victims(desired, pool, st)) {
    const bool failed = pool.vmss->vms().at(id).state == VmState::kFailed;
    if (failed || pool.opts.drain_time == 0) {  // a Failed VM has no Node to drain
      if (Call(imp, "compute:virtualMachineScaleSetVMs.delete", true) > 0) break;
      pool.vmss->DeleteInstance(id);
    } else {
      st.draining.emplace(id, now + pool.opts.drain_time);
    }
  }
  for (const auto& [id, until] : st.draining) {
    const Duration wait = std::max<Duration>(until - now, kSecond);
    if (result->requeue_after == 0 || wait < result->requeue_after) result->requeue_after = wait;
  }
}

// Builds the selector's view only when something could be deleted: a failed
// VM, more machines than desired, or VMs on an older model. At HEAD a pass
// that leaves no more machines than desired records `desired` as the
// replicas last reconciled (docs/reference/providers.md §2.6.3 step 7, commit 5db8772d2).
std::vector<uint64_t> AzureMachinePoolReconciler::Victims(int32_t desired, const Pool& pool,
                                                          PoolState& st) {
  const VirtualMachineScaleSet& v = *pool.vmss;
  const int32_t listed = static_cast<int32_t>(v.vms().size());
  const int32_t active =
      listed - v.count(VmState::kDeleting) - static_cast<int32_t>(st.draining.size());
  const bool head = pool.opts.delete_selection == DeleteSelection::kHead;
  if (v.count(VmState::kFailed) == 0 && active <= desired && v.on_latest_model() == listed) {
    if (head) st.last_reconciled_replicas = desired;
    return {};
  }
  std::vector<MachineView> views;
  views.reserve(v.vms().size());
  std::vector<std::string_view> succeeded;  // the VMs whose Node's readiness counts
  std::vector<size_t> view_of;              // the view of each of them
  bool all_latest = true;
  for (const auto& [id, vm] : v.vms()) {
    if (vm.state == VmState::kDeleting || st.draining.count(id)) continue;  // being deleted
    views.push_back({.id = id,
                     .ready = false,
                     .failed = vm.state == VmState::kFailed,
                     .deleting = false,
                     .latest_model = vm.kubelet_version == v.model_version()});
    all_latest = all_latest && views.back().latest_model;
    if (vm.state == VmState::kSucceeded) {
      succeeded.push_back(vm.name);
      view_of.push_back(views.size() - 1);
    }
  }
  const std::vector<char> ready = nodes_ready_(succeeded);
  for (size_t i = 0; i < view_of.size(); ++i) views[view_of[i]].ready = ready[i] != 0;
  return SelectVictims(desired, pool, st, views, all_latest);
}

std::vector<uint64_t> AzureMachinePoolReconciler::SelectVictims(
    int32_t desired, const Pool& pool, PoolState& st, const std::vector<MachineView>& views,
    bool all_latest) {
  const bool head = pool.opts.delete_selection == DeleteSelection::kHead;
  if (!head) {
    return SelectMachinesToDelete(desired, pool.opts.max_unavailable, pool.opts.delete_policy,
                                  views, &random_policy_rng_);
  }
  const bool rollout = RolloutInProgress(desired, st.last_reconciled_replicas, all_latest);
  std::vector<uint64_t> victims =
      SelectMachinesToDeleteHead(desired, pool.opts.max_unavailable, pool.opts.delete_policy, views,
                                 rollout, &random_policy_rng_);
  if (views.size() - victims.size() <= static_cast<size_t>(desired)) {
    st.last_reconciled_replicas = desired;
  }
  return victims;
}

Status AzureMachinePoolReconciler::Close(const InfraMachinePool& imp, Pool& pool) {
  const VirtualMachineScaleSet& v = *pool.vmss;
  if (!v.exists()) return Status::Ok();  // the scale set's state is not known
  PoolState& st = state_[imp.meta.name];
  if (st.ids_revision != v.revision()) {  // the set is sorted already: CAPZ #6011
    st.ids.assign(v.provider_ids().begin(), v.provider_ids().end());
    st.ids_revision = v.revision();
  }
  const std::vector<char> ready = nodes_ready_(v.SucceededNames());
  // AMPMs whose Node is Ready
  const auto ready_machines = static_cast<int32_t>(std::count(ready.begin(), ready.end(), 1));
  st.ready_machines = ready_machines;
  const bool new_ids = st.written_revision != st.ids_revision || !imp.spec.provider_id_list ||
                       imp.spec.provider_id_list->size() != st.ids.size();
  if (Status s = WriteStatus(imp, pool, ready_machines, new_ids ? &st.ids : nullptr); !s.ok()) {
    return s;
  }
  if (new_ids) st.written_revision = st.ids_revision;
  return Status::Ok();
}

Status AzureMachinePoolReconciler::WriteStatus(const InfraMachinePool& imp, const Pool& pool,
                                               int32_t ready_machines,
                                               const std::vector<SharedString>* ids) {
  const std::optional<bool> ready =
      ReadyFor(pool.vmss->provisioning_state(), pool.opts.failed_behavior, imp.status.ready);
  if (ids == nullptr && imp.status.replicas == ready_machines && imp.status.ready == ready) {
    return Status::Ok();
  }
  InfraMachinePool base = WithoutList(imp);
  InfraMachinePool next = base;
  if (ids != nullptr) next.spec.provider_id_list = *ids;
  next.status.replicas = ready_machines;
  next.status.ready = ready;
  if (Status s = client_->InfraMachinePools().Patch(base, &next); !s.ok()) return s;
  // CAPZ's status.ready is a plain bool: unset reads as false.
  const bool was = imp.status.ready.value_or(false), now = ready.value_or(false);
  if (was != now) {
    rec_->Change(clock_->Now(), kAzureMachinePoolKind, imp.meta.name, "status.ready",
                 was ? "true" : "false", now ? "true" : "false", imp.meta.name);
  }
  return Status::Ok();
}

}  // namespace mpsim::vmss
