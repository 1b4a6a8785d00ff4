// One simulated Azure Virtual Machine Scale Set, Uniform (or Flexible) orchestration with
// overprovisioning off as CAPZ creates it (docs/reference/providers.md §2.1-§2.3): capacity
// PUTs run as long-running operations, each VM is Creating -> Succeeded or
// Failed (AllocationFailed: a partial scale-out) -> Deleting -> gone, and
// every model change is a new model (at most 10 referenced).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "models/vmss/vm_table.h"
#include "models/vmss/vmss_options.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"
#include "util/shared_string.h"

namespace mpsim::vmss {

enum class VmState { kCreating, kSucceeded, kFailed, kDeleting };
const char* StateName(VmState s);

struct VirtualMachine {
  uint64_t id = 0;  // instance ID: creation order, never reused (Uniform)
  std::string name;
  std::string zone;
  // Pinned, as the other clouds' are: the Node, the providerIDList and every
  // reconcile's reads share one buffer per VM, laid out in creation order.
  SharedString provider_id;       // as CAPZ lists it (resource group lowercased)
  SharedString node_provider_id;  // as the cloud provider sets it on the Node
  VmState state = VmState::kCreating;
  int model = 1;  // the scale-set model the VM was created with
  std::string kubelet_version;
  std::string error;       // AllocationFailed / ZonalAllocationFailed
  bool allocated = false;  // holds a VM of its zone's capacity
};

inline constexpr int kModelLimit = 10;  // CAPZ #4958

class VirtualMachineScaleSet {
 public:
  VirtualMachineScaleSet(EventLoop* loop, WorkloadCluster* workload, Recorder* rec,
                         std::string pool, VmssOptions opts, uint64_t seed);
  VirtualMachineScaleSet(const VirtualMachineScaleSet&) = delete;
  VirtualMachineScaleSet& operator=(const VirtualMachineScaleSet&) = delete;

  bool exists() const { return exists_; }
  int32_t capacity() const { return capacity_; }  // sku.capacity
  // The scale set's provisioningState: Creating, Updating, Succeeded, Failed, Deleting.
  const std::string& provisioning_state() const { return state_; }
  int model() const { return model_; }
  const std::string& model_version() const { return version_; }  // the latest model's image
  bool operation_pending() const { return op_pending_; }
  int32_t count(VmState s) const { return counts_[static_cast<int>(s)]; }
  // VMs whose image is the latest model's: CAPZ's HasLatestModelApplied.
  int32_t on_latest_model() const;
  // Distinct models referenced by the VMs.
  int referenced_models() const { return static_cast<int>(models_.size()); }

  // CreateOrUpdate (PUT): accepted now, visible after operationDelay, done
  // when every VM it created is Succeeded or Failed. A new image `version` or
  // new `custom_data` is a new model (a `VirtualMachineScaleSet <pool> model`
  // row once the set exists); existing VMs keep theirs (upgradePolicy
  // Manual). Refused past the 10-model limit.
  Status Put(int32_t capacity, const std::string& version, const std::string& custom_data);
  // VirtualMachineScaleSetVMs.Delete: the VM goes Deleting and capacity
  // drops; it is gone after the terminate notification, if any, and deleteDelay.
  void DeleteInstance(uint64_t id);
  // DELETE of the scale set: every VM is deleted, then the set is gone.
  void Delete();
  // A Spot eviction (policy Delete): the VM goes after the 30 s notice and
  // capacity drops, out of band (docs/reference/providers.md §2.3). Spot VMs get no
  // terminate notification.
  void Evict(uint64_t id);

  // LIST of the VMs, in instance-ID order.
  const VmTable<VirtualMachine>& vms() const { return vms_; }
  // The providerIDs of every listed VM, sorted as strings, kept as VMs come and go.
  const std::set<SharedString>& provider_ids() const { return provider_ids_; }
  // Bumped whenever provider_ids() changes.
  uint64_t revision() const { return revision_; }
  // The names of the Succeeded VMs, in instance-ID order: what the
  // AzureMachinePool pass reads of the LIST on every reconcile. Kept until a
  // VM comes, goes or changes state, so a pass that finds the set as it was
  // walks no tree.
  const std::vector<std::string_view>& SucceededNames() const;

 private:
  void OperationVisible(int32_t capacity);
  void CreateVm();
  void PlaceVm(VirtualMachine* vm);
  void Finish(uint64_t id, VmState to);
  void Gone(uint64_t id);
  void SetState(VirtualMachine* vm, VmState to);
  void SetScaleSetState(const std::string& to);
  void MaybeFinishOperation();

  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  VmssOptions opts_;
  Rng launch_rng_, delete_rng_, op_rng_, fault_rng_;
  bool exists_ = false;
  bool deleting_ = false;
  std::string state_;
  int32_t capacity_ = 0;
  int model_ = 0;
  std::string version_;
  std::string custom_data_;
  uint64_t next_id_ = 0;
  bool op_pending_ = false;
  bool op_visible_ = false;
  bool op_failed_ = false;  // a VM ended Failed while the operation ran
  int32_t counts_[4] = {0, 0, 0, 0};
  std::map<int, int32_t> models_;            // model -> VMs on it
  std::map<std::string, int32_t> versions_;  // image -> VMs on it
  std::map<std::string, int32_t> in_zone_;   // zone -> VMs holding an allocation
  VmTable<VirtualMachine> vms_;
  std::set<SharedString> provider_ids_;
  uint64_t revision_ = 0;
  uint64_t states_revision_ = 0;                     // bumped as a VM comes, goes or changes state
  mutable std::vector<std::string_view> succeeded_;  // views of vms_' names
  mutable uint64_t succeeded_revision_ = UINT64_MAX;
};

}  // namespace mpsim::vmss
