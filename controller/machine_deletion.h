// The part of Cluster API's Machine controller that MachinePool Machines
// need: the finalizer, and on deletion the InfraMachine deleted before the Machine.
#pragma once

#include "api/reconciler.h"

namespace mpsim {

// machine_controller.go reconcileDelete, cut to what a MachinePool Machine
// goes through here. Not ported: drain and volume detach (the simulated
// workload cluster runs no pods), pre-terminate hooks, the bootstrap config
// (MachinePool Machines have none), and the Node delete by status.nodeRef
// (nothing sets it; the MachinePool controller's deleteRetiredNodes deletes
// the Node once the instance leaves the pool's providerIDList).
class MachineDeletionReconciler : public Reconciler {
 public:
  explicit MachineDeletionReconciler(Client* client) : client_(client) {}
  // Watches Machines and the InfraMachines they reference.
  void Setup(Builder* b) override;
  // Adds the finalizer to a live Machine; for a deleting one, deletes its
  // InfraMachine, waits until that is gone, then removes the finalizer.
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Client* client_;
};

}  // namespace mpsim
