#include "models/vmss/virtual_machine_scale_set.h"

#include <algorithm>

namespace mpsim::vmss {
namespace {

constexpr Duration kEvictionNotice =
    30 * kSecond;  // docs/reference/providers.md §2.4 Spot eviction
constexpr const char* kSubscription = "00000000-0000-0000-0000-000000000000";

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// docs/reference/providers.md §2.5: a Uniform VM is `virtualMachines/<instanceId>` under its
// scale set; a Flexible one is a plain VM by name (CAPZ azure/types.go
// VMSSVM.ProviderID drops `virtualMachineScaleSets/<vmss>`).
std::string ProviderID(const VmssOptions& o, const std::string& rg, const std::string& vmss,
                       const VirtualMachine& vm) {
  const std::string base = std::string("azure:///subscriptions/") + kSubscription +
                           "/resourceGroups/" + rg + "/providers/Microsoft.Compute/";
  if (o.orchestration_mode == OrchestrationMode::kFlexible) {
    return base + "virtualMachines/" + vm.name;
  }
  return base + "virtualMachineScaleSets/" + vmss + "/virtualMachines/" + std::to_string(vm.id);
}

void Decrement(std::map<std::string, int32_t>* m, const std::string& k) {
  if (--(*m)[k] == 0) m->erase(k);
}

}  // namespace

const char* StateName(VmState s) {
  switch (s) {
    case VmState::kCreating:
      return "Creating";
    case VmState::kSucceeded:
      return "Succeeded";
    case VmState::kFailed:
      return "Failed";
    case VmState::kDeleting:
      return "Deleting";
  }
  return "Unknown";
}

VirtualMachineScaleSet::VirtualMachineScaleSet(EventLoop* loop, WorkloadCluster* workload,
                                               Recorder* rec, std::string pool, VmssOptions opts,
                                               uint64_t seed)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(std::move(opts)),
      launch_rng_(StreamFor(seed, "vmss/" + pool_ + "/launch")),
      delete_rng_(StreamFor(seed, "vmss/" + pool_ + "/delete")),
      op_rng_(StreamFor(seed, "vmss/" + pool_ + "/operation")),
      fault_rng_(StreamFor(seed, "vmss/" + pool_ + "/faults")) {}

int32_t VirtualMachineScaleSet::on_latest_model() const {
  auto it = versions_.find(version_);
  return it == versions_.end() ? 0 : it->second;
}

Status VirtualMachineScaleSet::Put(int32_t capacity, const std::string& version,
                                   const std::string& custom_data) {
  if (deleting_) return Status::Conflict("scale set " + pool_ + " is being deleted");
  const bool new_model = !exists_ || version != version_ || custom_data != custom_data_;
  if (new_model && referenced_models() >= kModelLimit) {
    return Status::Invalid("Virtual Machine Scale Set '" + pool_ +
                           "' has reached its limit of 10 models that may be referenced by one "
                           "or more VMs");
  }
  SetScaleSetState(exists_ ? "Updating" : "Creating");
  if (new_model && exists_) {
    rec_->Change(loop_->Now(), "VirtualMachineScaleSet", pool_, "model", std::to_string(model_),
                 std::to_string(model_ + 1), pool_);
  }
  exists_ = true;
  if (new_model) ++model_, version_ = version, custom_data_ = custom_data;
  op_pending_ = true;
  op_visible_ = false;
  op_failed_ = false;
  loop_->After(Sample(opts_.operation_delay, op_rng_),
               [this, capacity] { OperationVisible(capacity); });
  return Status::Ok();
}

// Scale-in by capacity (which CAPZ never asks for) removes the highest
// instance IDs, the Default scale-in policy's last step (docs/reference/providers.md §2.1).
void VirtualMachineScaleSet::OperationVisible(int32_t capacity) {
  if (deleting_) return;
  op_visible_ = true;
  while (capacity_ < capacity) ++capacity_, CreateVm();
  for (auto it = vms_.rbegin(); capacity_ > capacity && it != vms_.rend(); ++it) {
    if (it->second.state != VmState::kDeleting) DeleteInstance(it->first);
  }
  MaybeFinishOperation();
}

void VirtualMachineScaleSet::CreateVm() {
  const uint64_t id = next_id_++;
  VirtualMachine& vm = vms_.Add(id);
  vm.id = id;
  vm.name = pool_ + "_" + std::to_string(id);
  // CAPZ lowercases the resource group (converters.SDKToVMSSVM), and so does
  // cloud-provider-azure for the Node since kubernetes PR #74882; before it
  // the Node kept Azure's spelling and never matched (CAPZ #2817).
  vm.provider_id = SharedString::Pinned(ProviderID(opts_, Lower(opts_.resource_group), pool_, vm));
  vm.node_provider_id =
      opts_.node_keeps_resource_group_case
          ? SharedString::Pinned(ProviderID(opts_, opts_.resource_group, pool_, vm))
          : vm.provider_id;
  vm.model = model_;
  vm.kubelet_version = version_;
  ++counts_[static_cast<int>(VmState::kCreating)];
  ++models_[vm.model];
  ++versions_[vm.kubelet_version];
  provider_ids_.insert(vm.provider_id);
  ++revision_;
  ++states_revision_;
  rec_->Change(loop_->Now(), "Instance", vm.name, "state", "", "Creating", pool_);
  if (fault_rng_.Bernoulli(opts_.allocation_failed_probability)) {
    vm.error = "AllocationFailed";
  } else {
    PlaceVm(&vm);
  }
  if (!vm.error.empty()) {
    rec_->Fault(loop_->Now(), pool_, vm.name, vm.error);
    loop_->After(Sample(opts_.allocation_failure_delay, fault_rng_),
                 [this, id] { Finish(id, VmState::kFailed); });
    return;
  }
  loop_->After(Sample(opts_.launch_delay, launch_rng_),
               [this, id] { Finish(id, VmState::kSucceeded); });
}

// Best-effort zone balance: the zone with the fewest VMs that still has
// capacity; none left is ZonalAllocationFailed (docs/reference/providers.md §2.1, §2.3).
void VirtualMachineScaleSet::PlaceVm(VirtualMachine* vm) {
  auto used = [this](const std::string& z) {
    auto it = in_zone_.find(z);
    return it == in_zone_.end() ? 0 : it->second;
  };
  const std::string* best = nullptr;
  for (const std::string& z : opts_.zones) {
    auto cap = opts_.capacity.find(z);
    if (cap != opts_.capacity.end() && used(z) >= cap->second) continue;
    if (best == nullptr || used(z) < used(*best)) best = &z;
  }
  if (best == nullptr) {
    vm->zone = opts_.zones.empty() ? "" : opts_.zones.front();
    vm->error = opts_.zones.size() > 1 ? "ZonalAllocationFailed" : "AllocationFailed";
    return;
  }
  vm->zone = *best;
  vm->allocated = true;
  ++in_zone_[*best];
}

void VirtualMachineScaleSet::Finish(uint64_t id, VmState to) {
  auto it = vms_.find(id);
  if (it == vms_.end() || it->second.state != VmState::kCreating) return;
  VirtualMachine& vm = it->second;
  SetState(&vm, to);
  if (to == VmState::kFailed) op_failed_ = true;
  if (to == VmState::kSucceeded) {
    workload_->InstanceBooted(pool_, vm.name, vm.node_provider_id, vm.kubelet_version);
  }
  MaybeFinishOperation();
}

void VirtualMachineScaleSet::DeleteInstance(uint64_t id) {
  auto it = vms_.find(id);
  if (it == vms_.end() || it->second.state == VmState::kDeleting) return;
  SetState(&it->second, VmState::kDeleting);
  --capacity_;
  // With a terminate notification the VM is deleted when its Terminate
  // scheduled event's NotBefore passes; nothing in the VM approves it
  // earlier (docs/reference/providers.md §2.4; learn.microsoft.com virtual-machine-scale-sets/
  // virtual-machine-scale-sets-terminate-notification).
  const Duration notice = opts_.terminate_notification_timeout;
  loop_->After(notice + Sample(opts_.delete_delay, delete_rng_), [this, id] { Gone(id); });
  MaybeFinishOperation();
}

void VirtualMachineScaleSet::Delete() {
  if (!exists_ || deleting_) return;
  deleting_ = true;
  op_pending_ = true;
  SetScaleSetState("Deleting");
  for (auto& [id, vm] : vms_) {
    if (vm.state != VmState::kDeleting) DeleteInstance(id);
  }
  if (vms_.empty()) exists_ = false, op_pending_ = false;
}

void VirtualMachineScaleSet::Evict(uint64_t id) {
  auto it = vms_.find(id);
  if (it == vms_.end() || it->second.state != VmState::kSucceeded) return;
  rec_->Fault(loop_->Now(), pool_, it->second.name, "SpotEviction");
  loop_->After(kEvictionNotice, [this, id] {
    auto vm = vms_.find(id);
    if (vm == vms_.end() || vm->second.state == VmState::kDeleting) return;
    SetState(&vm->second, VmState::kDeleting);
    --capacity_;
    Gone(id);
  });
}

void VirtualMachineScaleSet::Gone(uint64_t id) {
  auto it = vms_.find(id);
  if (it == vms_.end()) return;
  const VirtualMachine& vm = it->second;
  --counts_[static_cast<int>(VmState::kDeleting)];
  if (--models_[vm.model] == 0) models_.erase(vm.model);
  Decrement(&versions_, vm.kubelet_version);
  if (vm.allocated) Decrement(&in_zone_, vm.zone);
  provider_ids_.erase(vm.provider_id);
  ++revision_;
  ++states_revision_;
  rec_->Change(loop_->Now(), "Instance", vm.name, "state", "Deleting", "Deleted", pool_);
  workload_->InstanceGone(vm.name);
  vms_.erase(it);
  if (deleting_ && vms_.empty()) {
    exists_ = false;
    op_pending_ = false;
    SetScaleSetState("");
  }
}

void VirtualMachineScaleSet::SetState(VirtualMachine* vm, VmState to) {
  --counts_[static_cast<int>(vm->state)];
  ++counts_[static_cast<int>(to)];
  rec_->Change(loop_->Now(), "Instance", vm->name, "state", StateName(vm->state), StateName(to),
               pool_);
  vm->state = to;
  ++states_revision_;
}

const std::vector<std::string_view>& VirtualMachineScaleSet::SucceededNames() const {
  if (succeeded_revision_ != states_revision_) {
    succeeded_.clear();
    for (const auto& [id, vm] : vms_) {
      if (vm.state == VmState::kSucceeded) succeeded_.push_back(vm.name);
    }
    succeeded_revision_ = states_revision_;
  }
  return succeeded_;
}

void VirtualMachineScaleSet::SetScaleSetState(const std::string& to) {
  if (to == state_) return;
  rec_->Change(loop_->Now(), "VirtualMachineScaleSet", pool_, "provisioningState", state_, to,
               pool_);
  state_ = to;
}

// The operation ends when none of its VMs is still Creating; one Failed VM
// fails the whole operation (a partial scale-out, CAPZ #5860).
void VirtualMachineScaleSet::MaybeFinishOperation() {
  if (!op_pending_ || !op_visible_ || deleting_ || count(VmState::kCreating) > 0) return;
  op_pending_ = false;
  SetScaleSetState(op_failed_ ? "Failed" : "Succeeded");
}

}  // namespace mpsim::vmss
