// CAPZ's AzureMachinePool controller (exp/controllers/azuremachinepool_controller.go
// and azure/scope/machinepool.go, docs/reference/providers.md §2.6.1 and §2.6.3) driving
// simulated scale sets: the PUT as a saved long-running operation, surge
// capacity while a rollout is pending, the machines a pass deletes, and the
// status the scope's Close writes (ready, replicas, sorted providerIDList).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/reconciler.h"
#include "models/vmss/arm_throttle.h"
#include "models/vmss/deployment_strategy.h"
#include "models/vmss/virtual_machine_scale_set.h"
#include "sim/random.h"
#include "sim/recorder.h"

namespace mpsim::vmss {

inline constexpr const char* kAzureMachinePoolKind = "AzureMachinePool";
inline constexpr const char* kAzureMachinePoolFinalizer =
    "azuremachinepool.infrastructure.cluster.x-k8s.io";

class AzureMachinePoolReconciler : public Reconciler {
 public:
  struct Pool {
    VirtualMachineScaleSet* vmss;
    VmssOptions opts;
  };
  // Whether the Node of each VM (by instance name) is Ready: what the
  // AzureMachinePoolMachine controller copies into its status.ready. Asked
  // of a whole scale set at once, so that the lookups' misses overlap.
  using NodesReady =
      std::function<std::vector<char>(const std::vector<std::string_view>& instances)>;
  // Asks `one` of each instance in turn (for tests).
  static NodesReady EachOf(std::function<bool(const std::string& instance)> one);

  AzureMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                             ArmThrottle* throttle, NodesReady nodes_ready,
                             std::map<std::string, Pool> pools, uint64_t seed);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  // What this controller remembers of one pool between passes.
  struct PoolState {
    Time last_clean = -1;               // the coalescing reconciler's last pass without error
    uint64_t ids_revision = ~0ull;      // the scale set revision `ids` was built from
    std::vector<SharedString> ids;      // sorted providerIDs (CAPZ #6011)
    uint64_t written_revision = ~0ull;  // the revision last patched into the AMP
    std::map<uint64_t, Time> draining;  // VM -> when its Machine's drain ends
    int32_t ready_machines = 0;         // status.replicas as last computed
    // HEAD's status.lastReconciledReplicas, kept here rather than on the
    // AzureMachinePool since nothing else reads it.
    int32_t last_reconciled_replicas = 0;
  };

  Status ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp, Pool& pool,
                         Result* result);
  Status ReconcileDelete(const InfraMachinePool& imp, Pool& pool, Result* result);
  // scalesets.Reconcile: GET, LIST and, when needed, PUT with the custom
  // data whose hash tag is `custom_data_hash`. Sets *future when an
  // operation is left running.
  Status ReconcileScaleSet(const InfraMachinePool& imp, const MachinePool& mp, Pool& pool,
                           const std::string& custom_data_hash, bool* future, Result* result);
  // applyAzureMachinePoolMachines: deletes through Machines (drain first).
  void ApplyMachines(const InfraMachinePool& imp, int32_t desired, Pool& pool, Result* result);
  std::vector<uint64_t> Victims(int32_t desired, const Pool& pool, PoolState& st);
  // The victims among `views`, as the pool's deleteSelection picks them.
  std::vector<uint64_t> SelectVictims(int32_t desired, const Pool& pool, PoolState& st,
                                      const std::vector<MachineView>& views, bool all_latest);
  // setProvisioningStateAndConditions + updateReplicasAndProviderIDs + patch.
  Status Close(const InfraMachinePool& imp, Pool& pool);
  bool NeedsRequeue(int32_t desired, const Pool& pool, const PoolState& st) const;

  // models/vmss/machinepool_machines.cc: the same steps when the pool makes
  // AzureMachinePoolMachines (VmssOptions::machine_pool_machines).
  using Machines = std::vector<std::shared_ptr<const InfraMachine>>;
  Machines ListMachines(const InfraMachinePool& imp);
  // Creates a machine per new VM, deletes the owner Machines of those whose
  // VM is gone, then (no operation pending) those of this pass's victims.
  Status ApplyPoolMachines(const InfraMachinePool& imp, const MachinePool& mp, int32_t desired,
                           Pool& pool);
  // Deletes the machine's owner Machine; none yet: left alone (CAPZ's race guard).
  Status DeleteOwner(const InfraMachine& ampm);
  // providerIDList from every machine, sorted; replicas: the ready ones.
  Status CloseWithMachines(const InfraMachinePool& imp, Pool& pool);
  // The pool's deletion: the owner Machines of machines left, then the finalizer.
  Status DeleteMachinesLeft(const InfraMachinePool& imp, bool* left);
  // Writes replicas, ready and (when `ids`) the list, as Close does.
  Status WriteStatus(const InfraMachinePool& imp, const Pool& pool, int32_t ready_machines,
                     const std::vector<SharedString>* ids);
  // One ARM request: counted, and a 429 with its Retry-After when the
  // subscription's bucket is empty (0: accepted).
  Duration Call(const InfraMachinePool& imp, const char* api, bool write);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  ArmThrottle* throttle_;
  NodesReady nodes_ready_;
  std::map<std::string, Pool> pools_;  // by AzureMachinePool name
  std::map<std::string, PoolState> state_;
  Rng random_policy_rng_;
};

}  // namespace mpsim::vmss
