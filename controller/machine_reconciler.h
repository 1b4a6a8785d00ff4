// The part of Cluster API's Machine controller that MachinePool Machines
// need (docs/reference/capi-core.md §4.1): the finalizer; for a live Machine
// the providerID from its InfraMachine and the nodeRef and nodeInfo from its
// Node; on deletion the drain, then the InfraMachine deleted before the
// Machine; and in every pass the v1beta2 conditions (controller/
// machine_status.h) that the pool's ready and available counters count.
//
// Not ported: bootstrap configs (MachinePool Machines have none), the Node's
// label and annotation sync (patchNode), volume detach, hooks, certificate
// expiry, and the Node delete by status.nodeRef (the MachinePool controller's
// deleteRetiredNodes deletes the Node once the instance leaves the pool).
#pragma once

#include <functional>
#include <vector>

#include "api/reconciler.h"
#include "api/time.h"
#include "controller/machine_status.h"

namespace mpsim {

class MachineReconciler : public Reconciler {
 public:
  // How long draining the Node of a Machine takes; 0 or no function: at once.
  // The simulated workload cluster runs no pods, so the drain is a wait.
  using DrainTime = std::function<Duration(const Machine&)>;

  MachineReconciler(Client* client, const Clock* clock, DrainTime drain_time = nullptr)
      : client_(client), clock_(clock), drain_time_(std::move(drain_time)) {}
  // Watches Machines, the InfraMachines they reference and, once a
  // reconcile asks, the workload cluster's Nodes (nodeToMachine).
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  // reconcileInfrastructure, cut to the providerID and the provisioned flag.
  Status ReconcileInfrastructure(MachineScope* s, Result* result);
  // reconcileNode, without patchNode.
  Status ReconcileNode(MachineScope* s);
  // reconcileDelete: drain, delete the InfraMachine, wait for it to go;
  // *release says the finalizer may go.
  Status ReconcileDelete(MachineScope* s, Result* result, bool* release);
  // The time left of the Node's drain, counted from the deletion (0: done).
  Duration DrainLeft(const Machine& m, const InfraMachine& im) const;
  std::vector<Request> NodeToMachine(const Node& node);

  Client* client_;
  const Clock* clock_;
  DrainTime drain_time_;
};

}  // namespace mpsim
