// The scale set under one AKS agent pool (docs/reference/azure-managed.md
// §1.5, §3.3): AKS names it `aks-<pool>-<digits>-vmss`, tags it with the
// pool's name, and names each VM after it with the instance ID in six
// base-36 digits. VMs are Creating -> Succeeded (or Failed: AllocationFailed)
// -> Deleting -> gone; a reimage turns a Succeeded VM Creating again under
// the same name and ID. The Nodes carry AKS's agent-pool and cluster labels.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "models/aks/aks_options.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"
#include "util/shared_string.h"

namespace mpsim::aks {

// The Nodes' labels AKS sets: the agent pool's name and the node resource
// group (docs/reference/azure-managed.md §2.5).
inline constexpr const char* kAgentPoolLabel = "kubernetes.azure.com/agentpool";
inline constexpr const char* kClusterLabel = "kubernetes.azure.com/cluster";

enum class VmState { kCreating, kSucceeded, kFailed, kDeleting };
const char* VmStateName(VmState s);

struct Vm {
  uint64_t id = 0;  // instance ID: creation order, never reused
  std::string name;
  std::string zone;
  // As cloud-provider-azure sets it on the Node: `azure://` + the ARM ID,
  // resource-group segment lowercased (kubernetes PR #74882).
  SharedString node_provider_id;
  VmState state = VmState::kCreating;
  std::string version;  // the pool's orchestratorVersion when the VM was made or reimaged
  bool allocated = false;
};

class ScaleSet {
 public:
  ScaleSet(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
           const AksOptions& opts, uint64_t seed);
  ScaleSet(const ScaleSet&) = delete;
  ScaleSet& operator=(const ScaleSet&) = delete;

  bool exists() const { return exists_; }
  const std::string& name() const { return name_; }
  // The `poolName` tag AKS puts on the scale set: the agent pool's name.
  const std::string& pool_name_tag() const { return tag_; }
  const std::map<uint64_t, Vm>& vms() const { return vms_; }
  int32_t count(VmState s) const { return counts_[static_cast<int>(s)]; }
  // Bumped whenever a VM comes or goes.
  uint64_t revision() const { return revision_; }
  // The VM's ARM resource ID, resource group as AKS spells it.
  std::string ResourceId(const Vm& vm) const;

  void Create() { exists_ = true; }
  // Adds one VM with this kubelet version; returns its instance ID.
  uint64_t AddVm(const std::string& version);
  // Deletes the VM: Deleting, gone after deleteDelay.
  void DeleteVm(uint64_t id);
  // Reimages a Succeeded VM to `version`: its Node goes, and it boots again.
  void Reimage(uint64_t id, const std::string& version);
  // The scale set is gone once its last VM is.
  void DeleteAll();

  // Called after a VM ends Creating (Succeeded or Failed) or is gone.
  std::function<void()> on_change;

 private:
  void Place(Vm* vm);
  void Finish(uint64_t id, VmState to, uint64_t boot);
  void Gone(uint64_t id);
  void SetState(Vm* vm, VmState to);
  void Changed() const {
    if (on_change) on_change();
  }

  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  AksOptions opts_;
  std::string name_;
  std::string tag_;
  Rng launch_rng_, delete_rng_, fault_rng_;
  bool exists_ = false;
  bool deleting_ = false;
  uint64_t next_id_ = 0;
  std::map<uint64_t, Vm> vms_;
  std::map<uint64_t, uint64_t> boots_;  // VM -> its reimages, so a stale boot is dropped
  std::map<std::string, int32_t> in_zone_;
  int32_t counts_[4] = {0, 0, 0, 0};
  uint64_t revision_ = 0;
};

}  // namespace mpsim::aks
