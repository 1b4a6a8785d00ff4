// The AzureMachinePool's side of its AzureMachinePoolMachines, for pools that
// make them (`machinePoolMachines`): applyAzureMachinePoolMachines and
// updateReplicasAndProviderIDs of azure/scope/machinepool.go (docs/reference/providers.md
// §2.6.1, §2.6.3), deleting VMs only through their owner Machines.
#include <algorithm>
#include <map>
#include <set>

#include "models/common/pool_members.h"
#include "models/vmss/azuremachinepool_reconciler.h"
#include "models/vmss/azuremachinepoolmachine_reconciler.h"

namespace mpsim::vmss {
namespace {

// The autoscaler's mark (docs/reference/providers.md §2.6.3 "Delete-machine").
bool HasDeleteMark(const ObjectMeta& meta) {
  return meta.annotations.count(kDeleteMachineAnnotation) > 0;
}

bool MadeBy(const InfraMachine& m, const InfraMachinePool& imp) {
  if (m.kind != kAzureMachinePoolMachineKind) return false;
  return std::any_of(m.meta.owner_references.begin(), m.meta.owner_references.end(),
                     [&](const OwnerReference& r) {
                       return r.kind == kAzureMachinePoolKind && r.name == imp.meta.name;
                     });
}

}  // namespace

AzureMachinePoolReconciler::Machines AzureMachinePoolReconciler::ListMachines(
    const InfraMachinePool& imp) {
  return client_->InfraMachines().List(
      {.ns = imp.meta.ns, .field = [&imp](const InfraMachine& m) { return MadeBy(m, imp); }});
}

Status AzureMachinePoolReconciler::ApplyPoolMachines(const InfraMachinePool& imp,
                                                     const MachinePool& mp, int32_t desired,
                                                     Pool& pool) {
  const VirtualMachineScaleSet& v = *pool.vmss;
  const Machines machines = ListMachines(imp);
  // Step 2: a machine for every VM not being deleted that has none.
  std::set<uint64_t> have;
  for (const auto& m : machines) {
    if (std::optional<uint64_t> id = InstanceIdOf(m->meta.name)) have.insert(*id);
  }
  for (const auto& [id, vm] : v.vms()) {
    if (vm.state == VmState::kDeleting || have.count(id)) continue;
    InfraMachine ampm = NewPoolMember(imp, mp,
                                      {.name = MachineNameFor(imp.meta.name, id),
                                       .kind = kAzureMachinePoolMachineKind,
                                       .finalizer = kAzureMachinePoolMachineFinalizer,
                                       .provider_id = vm.provider_id,
                                       .ready = false});
    Status s = client_->InfraMachines().Create(&ampm);
    if (!s.ok() && s.code() != Status::Code::kAlreadyExists) return s;
  }
  // Step 3: machines whose VM is gone lose their owner Machine; if any did,
  // that is this pass's one kind of deletion.
  bool orphans = false;
  for (const auto& m : machines) {
    std::optional<uint64_t> id = InstanceIdOf(m->meta.name);
    if (m->meta.deletion_timestamp || (id && v.vms().count(*id))) continue;
    orphans = true;
    if (Status s = DeleteOwner(*m); !s.ok()) return s;
  }
  if (orphans || v.operation_pending()) return Status::Ok();  // step 4
  // Step 6: the victims, among machines whose Machine is not already going,
  // and those going that are marked delete-machine (step 1 copies the owner
  // Machine's mark; CAPZ's annotated set keeps machines being deleted).
  PoolState& st = state_[imp.meta.name];
  std::vector<MachineView> views;
  std::map<uint64_t, const InfraMachine*> by_id;
  bool all_latest = true;
  for (const auto& m : machines) {
    std::optional<uint64_t> id = InstanceIdOf(m->meta.name);
    auto vm = id ? v.vms().find(*id) : v.vms().end();
    if (vm == v.vms().end()) continue;
    auto owner = client_->Machines().GetShared(m->meta.Key());
    const bool going = m->meta.deletion_timestamp || vm->second.state == VmState::kDeleting ||
                       (owner != nullptr && owner->meta.deletion_timestamp);
    const bool annotated =
        HasDeleteMark(m->meta) || (owner != nullptr && HasDeleteMark(owner->meta));
    if (going && !annotated) continue;
    views.push_back(
        {.id = *id,
         .ready = m->status.ready.value_or(false) && vm->second.state == VmState::kSucceeded,
         .failed = vm->second.state == VmState::kFailed,
         .deleting = false,
         .latest_model = vm->second.kubelet_version == v.model_version(),
         .annotated = annotated,
         .going = going});
    if (!going) all_latest = all_latest && views.back().latest_model;
    by_id[*id] = m.get();
  }
  // The selector lists machines oldest first: by instance ID, as VMs are.
  std::sort(views.begin(), views.end(),
            [](const MachineView& a, const MachineView& b) { return a.id < b.id; });
  for (uint64_t id : SelectVictims(desired, pool, st, views, all_latest)) {
    if (Status s = DeleteOwner(*by_id.at(id)); !s.ok()) return s;
  }
  return Status::Ok();
}

Status AzureMachinePoolReconciler::DeleteOwner(const InfraMachine& ampm) {
  std::shared_ptr<const Machine> owner = client_->Machines().GetShared(ampm.meta.Key());
  if (owner == nullptr || owner->meta.deletion_timestamp) return Status::Ok();
  Status s = client_->Machines().Delete(owner->meta.Key());
  return s.IsNotFound() ? Status::Ok() : s;
}

// updateReplicasAndProviderIDs: the list names every machine, being deleted
// or not, sorted (CAPZ #6011); replicas counts the ready ones. Machines made
// in this pass are not in the cache yet, as upstream.
Status AzureMachinePoolReconciler::CloseWithMachines(const InfraMachinePool& imp, Pool& pool) {
  if (!pool.vmss->exists()) return Status::Ok();  // the scale set's state is not known
  std::vector<SharedString> ids;
  int32_t ready_machines = 0;
  for (const auto& m : ListMachines(imp)) {
    // The VM's own pinned buffer (ApplyPoolMachines copied it in), so the
    // list shares it with the Node without pinning it again.
    if (m->spec.provider_id) ids.push_back(*m->spec.provider_id);
    ready_machines += m->status.ready.value_or(false);
  }
  // The List is in name order, "<pool>-<instance ID>", and a scale set's
  // providerIDs are one prefix and "/<instance ID>": they come sorted, and a
  // sort of long texts sharing a prefix cost 8 % of a run.
  if (!std::is_sorted(ids.begin(), ids.end())) std::sort(ids.begin(), ids.end());
  const bool same = imp.spec.provider_id_list && imp.spec.provider_id_list->size() == ids.size() &&
                    std::equal(ids.begin(), ids.end(), imp.spec.provider_id_list->begin());
  return WriteStatus(imp, pool, ready_machines, same ? nullptr : &ids);
}

Status AzureMachinePoolReconciler::DeleteMachinesLeft(const InfraMachinePool& imp, bool* left) {
  const Machines machines = ListMachines(imp);
  *left = !machines.empty();
  for (const auto& m : machines) {
    if (m->meta.deletion_timestamp) continue;
    // One that core never gave a Machine would wait for it forever: it goes
    // itself.
    Status s = client_->Machines().GetShared(m->meta.Key()) != nullptr
                   ? DeleteOwner(*m)
                   : client_->InfraMachines().Delete(m->meta.Key());
    if (!s.ok() && !s.IsNotFound()) return s;
  }
  return Status::Ok();
}

}  // namespace mpsim::vmss
