// CAPZ's AzureMachinePoolMachine controller, run when a pool sets
// `machinePoolMachines` (exp/controllers/azuremachinepoolmachine_controller.go,
// docs/reference/providers.md §2.6.2): one object per scale-set VM, ready when its Node is,
// that takes its owner Machine along when the VM goes and deletes the VM once
// core has drained the Machine's Node.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "api/reconciler.h"
#include "models/vmss/arm_throttle.h"
#include "models/vmss/virtual_machine_scale_set.h"
#include "sim/recorder.h"

namespace mpsim::vmss {

inline constexpr const char* kAzureMachinePoolMachineKind = "AzureMachinePoolMachine";
inline constexpr const char* kAzureMachinePoolMachineFinalizer =
    "azuremachinepoolmachine.infrastructure.cluster.x-k8s.io";

// The name CAPZ gives a VM's AzureMachinePoolMachine: `<pool>-<instanceID>`.
std::string MachineNameFor(const std::string& pool, uint64_t instance_id);
// The instance ID at the end of such a name, if it has one.
std::optional<uint64_t> InstanceIdOf(const std::string& machine_name);

class AzureMachinePoolMachineReconciler : public Reconciler {
 public:
  // `sets`: the scale set of each AzureMachinePool that makes machines, by name.
  AzureMachinePoolMachineReconciler(Client* client, const Clock* clock, Recorder* rec,
                                    ArmThrottle* throttle,
                                    std::map<std::string, VirtualMachineScaleSet*> sets);
  // The AzureMachinePoolMachines and their owner Machines (core names the
  // Machine after the AzureMachinePoolMachine).
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachine& ampm, const InfraMachinePool& amp,
                         const Machine& owner, VirtualMachineScaleSet& vmss, Result* result);
  Status ReconcileDelete(const InfraMachine& ampm, const InfraMachinePool& amp,
                         VirtualMachineScaleSet& vmss, Result* result);
  Status RemoveFinalizer(const InfraMachine& ampm);
  // UpdateNodeStatus: whether the Node whose providerID is exactly the
  // machine's is Ready.
  Status NodeReady(const Machine& owner, const InfraMachine& ampm, const VirtualMachine& vm,
                   bool* ready);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  ArmThrottle* throttle_;
  std::map<std::string, VirtualMachineScaleSet*> sets_;
  std::map<ObjectKey, Time> last_clean_;  // the coalescing reconciler's last pass without error
};

}  // namespace mpsim::vmss
