#include "models/aks/scale_set.h"

namespace mpsim::aks {
namespace {

constexpr const char* kAksSubscription = "00000000-0000-0000-0000-000000000000";

std::string AksLower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// AKS's node names: the scale set's computer-name prefix and the instance ID
// in six base-36 digits (`aks-pool0-12345678-vmss00000a`).
std::string ComputerName(const std::string& vmss, uint64_t id) {
  std::string digits(6, '0');
  for (int i = 5; i >= 0 && id > 0; --i, id /= 36) {
    digits[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[id % 36];
  }
  return vmss + digits;
}

std::string ArmId(const std::string& rg, const std::string& vmss, uint64_t id) {
  return std::string("/subscriptions/") + kAksSubscription + "/resourceGroups/" + rg +
         "/providers/Microsoft.Compute/virtualMachineScaleSets/" + vmss + "/virtualMachines/" +
         std::to_string(id);
}

}  // namespace

const char* VmStateName(VmState s) {
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

// The scale set's name ends in digits AKS derives from the cluster; here
// they are drawn from the pool's own stream, so a run replays.
ScaleSet::ScaleSet(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
                   const AksOptions& opts, uint64_t seed)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(opts),
      tag_(opts.agent_pool_name),
      launch_rng_(StreamFor(seed, "aks/" + pool_ + "/launch")),
      delete_rng_(StreamFor(seed, "aks/" + pool_ + "/delete")),
      fault_rng_(StreamFor(seed, "aks/" + pool_ + "/faults")) {
  Rng name_rng = StreamFor(seed, "aks/" + pool_ + "/name");
  const uint64_t digits = 10000000 + name_rng.Below(90000000);
  name_ = "aks-" + opts.agent_pool_name + "-" + std::to_string(digits) + "-vmss";
  workload_->SetPoolNodeConfig(
      pool_,
      Labels{{kAgentPoolLabel, opts.agent_pool_name}, {kClusterLabel, opts.node_resource_group}},
      {});
}

std::string ScaleSet::ResourceId(const Vm& vm) const {
  return ArmId(opts_.node_resource_group, name_, vm.id);
}

uint64_t ScaleSet::AddVm(const std::string& version) {
  const uint64_t id = next_id_++;
  Vm& vm = vms_[id];
  vm.id = id;
  vm.name = ComputerName(name_, id);
  vm.node_provider_id =
      SharedString::Pinned("azure://" + ArmId(AksLower(opts_.node_resource_group), name_, id));
  vm.version = version;
  ++counts_[static_cast<int>(VmState::kCreating)];
  ++revision_;
  rec_->Change(loop_->Now(), "Instance", vm.name, "state", "", "Creating", pool_);
  std::string error;
  if (fault_rng_.Bernoulli(opts_.allocation_failed_probability)) {
    error = "AllocationFailed";
  } else {
    Place(&vm);
    if (!vm.allocated)
      error = opts_.zones.size() > 1 ? "ZonalAllocationFailed" : "AllocationFailed";
  }
  const uint64_t boot = boots_[id];
  if (!error.empty()) {
    rec_->Fault(loop_->Now(), pool_, vm.name, error);
    loop_->After(Sample(opts_.allocation_failure_delay, fault_rng_),
                 [this, id, boot] { Finish(id, VmState::kFailed, boot); });
  } else {
    loop_->After(Sample(opts_.launch_delay, launch_rng_),
                 [this, id, boot] { Finish(id, VmState::kSucceeded, boot); });
  }
  return id;
}

// Best-effort zone balance: the zone with the fewest VMs that still has room.
void ScaleSet::Place(Vm* vm) {
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
  vm->zone = best != nullptr ? *best : (opts_.zones.empty() ? "" : opts_.zones.front());
  if (best == nullptr) return;
  vm->allocated = true;
  ++in_zone_[*best];
}

void ScaleSet::Finish(uint64_t id, VmState to, uint64_t boot) {
  auto it = vms_.find(id);
  if (it == vms_.end() || it->second.state != VmState::kCreating || boots_[id] != boot) return;
  Vm& vm = it->second;
  SetState(&vm, to);
  if (to == VmState::kSucceeded) {
    // The kubelet reports its version with the `v` AKS's orchestratorVersion lacks.
    workload_->InstanceBooted(pool_, vm.name, vm.node_provider_id, "v" + vm.version);
  }
  Changed();
}

void ScaleSet::DeleteVm(uint64_t id) {
  auto it = vms_.find(id);
  if (it == vms_.end() || it->second.state == VmState::kDeleting) return;
  SetState(&it->second, VmState::kDeleting);
  loop_->After(Sample(opts_.delete_delay, delete_rng_), [this, id] { Gone(id); });
}

void ScaleSet::Reimage(uint64_t id, const std::string& version) {
  auto it = vms_.find(id);
  if (it == vms_.end() || it->second.state != VmState::kSucceeded) return;
  Vm& vm = it->second;
  workload_->InstanceGone(vm.name);
  vm.version = version;
  SetState(&vm, VmState::kCreating);
  const uint64_t boot = ++boots_[id];
  loop_->After(Sample(opts_.launch_delay, launch_rng_),
               [this, id, boot] { Finish(id, VmState::kSucceeded, boot); });
}

void ScaleSet::DeleteAll() {
  deleting_ = true;
  for (auto& [id, vm] : vms_) DeleteVm(id);
  if (vms_.empty()) exists_ = false, deleting_ = false;
}

void ScaleSet::Gone(uint64_t id) {
  auto it = vms_.find(id);
  if (it == vms_.end()) return;
  const Vm& vm = it->second;
  --counts_[static_cast<int>(VmState::kDeleting)];
  if (vm.allocated && --in_zone_[vm.zone] == 0) in_zone_.erase(vm.zone);
  rec_->Change(loop_->Now(), "Instance", vm.name, "state", "Deleting", "Deleted", pool_);
  workload_->InstanceGone(vm.name);
  vms_.erase(it);
  boots_.erase(id);
  ++revision_;
  if (deleting_ && vms_.empty()) exists_ = false, deleting_ = false;
  Changed();
}

void ScaleSet::SetState(Vm* vm, VmState to) {
  --counts_[static_cast<int>(vm->state)];
  ++counts_[static_cast<int>(to)];
  rec_->Change(loop_->Now(), "Instance", vm->name, "state", VmStateName(vm->state), VmStateName(to),
               pool_);
  vm->state = to;
}

}  // namespace mpsim::aks
