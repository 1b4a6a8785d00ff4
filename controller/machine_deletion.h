// The part of Cluster API's Machine controller that MachinePool Machines
// need: the finalizer, and on deletion the InfraMachine deleted before the Machine.
#pragma once

#include <functional>

#include "api/reconciler.h"
#include "api/time.h"

namespace mpsim {

// machine_controller.go reconcileDelete, cut to what a MachinePool Machine
// goes through here. The drain is a wait: the simulated workload cluster runs
// no pods, so draining a Node takes what `drain_time` says for its pool, and
// only a Machine whose InfraMachine is ready (it has a Node) is drained. Not
// ported: volume detach, pre-terminate hooks, the bootstrap config
// (MachinePool Machines have none), and the Node delete by status.nodeRef
// (nothing sets it; the MachinePool controller's deleteRetiredNodes deletes
// the Node once the instance leaves the pool's providerIDList).
class MachineDeletionReconciler : public Reconciler {
 public:
  // How long draining the Node of a Machine takes; 0 or no function: at once.
  using DrainTime = std::function<Duration(const Machine&)>;

  explicit MachineDeletionReconciler(Client* client, const Clock* clock = nullptr,
                                     DrainTime drain_time = nullptr)
      : client_(client), clock_(clock), drain_time_(std::move(drain_time)) {}
  // Watches Machines and the InfraMachines they reference.
  void Setup(Builder* b) override;
  // Adds the finalizer to a live Machine; for a deleting one, drains its
  // Node, deletes its InfraMachine, waits until that is gone, then removes
  // the finalizer.
  Status Reconcile(const Request& req, Result* result) override;

 private:
  // The time left of the Node's drain, counted from the deletion (0: done).
  Duration DrainLeft(const Machine& m, const InfraMachine& im) const;

  Client* client_;
  const Clock* clock_;
  DrainTime drain_time_;
};

}  // namespace mpsim
