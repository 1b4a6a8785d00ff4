// The part of Cluster API's Cluster controller that deleting a Cluster needs
// (cluster_controller.go, docs/reference/cluster-deletion.md): the
// finalizer, the phase, and on deletion the Cluster's descendants deleted
// and waited for before the finalizer goes. The simulated Cluster has no
// infrastructure or control plane reference, no MachineDeployments or
// MachineSets and no kubeconfig: those steps have nothing to act on and are
// not ported.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/reconciler.h"

namespace mpsim {

// clusterDescendants: what getDescendants lists by the cluster-name label.
struct ClusterDescendants {
  std::vector<std::shared_ptr<const MachinePool>> machine_pools;
  std::vector<std::shared_ptr<const Machine>> control_plane_machines;
  std::vector<std::shared_ptr<const Machine>> worker_machines;

  // objectsPendingDeleteCount: every descendant; the control plane Machines
  // count because the Cluster has no control plane object.
  size_t ObjectsPendingDeleteCount() const;
  // objectsPendingDeleteNames: "MachinePools: a, b" and "Worker Machines: ...".
  std::vector<std::string> ObjectsPendingDeleteNames() const;
};

// A descendant with an ownerReference to the Cluster, as filterOwnedDescendants returns it.
struct OwnedDescendant {
  std::shared_ptr<const MachinePool> machine_pool;  // set for a MachinePool
  std::shared_ptr<const Machine> machine;           // else a Machine
  const ObjectMeta& Meta() const { return machine_pool ? machine_pool->meta : machine->meta; }
};

// The scope one reconcile shares between its steps.
struct ClusterScope {
  Cluster* cluster = nullptr;
  ClusterDescendants descendants;
  bool get_descendants_succeeded = false;
  std::string deleting_reason;
  std::string deleting_message;
};

// filterOwnedDescendants: MachinePools first, then worker Machines, then the
// control plane Machines, each list in name order; only those owned by `cluster`.
std::vector<OwnedDescendant> FilterOwnedDescendants(const ClusterDescendants& d,
                                                    const Cluster& cluster);

class ClusterReconciler : public Reconciler {
 public:
  explicit ClusterReconciler(Client* client) : client_(client) {}
  // Watches Clusters, their MachinePools and control plane Machines.
  void Setup(Builder* b) override;
  // Adds the finalizer; on deletion deletes the owned descendants, requeues
  // every 5 s while any descendant remains, then removes the finalizer.
  // Every pass writes the phase (Pending, Deleting).
  Status Reconcile(const Request& req, Result* result) override;

  // getDescendants: MachinePools and Machines with the Cluster's name label.
  Status GetDescendants(ClusterScope* s);
  // reconcileDelete.
  Status ReconcileDelete(ClusterScope* s, Result* result);

 private:
  Client* client_;
};

}  // namespace mpsim
