// CAPOCI's OCIManagedMachinePool controller (exp/controllers/
// ocimanaged_machinepool_controller.go, docs/reference/oci-scaleway.md §2)
// driving simulated OKE node pools: the pool created and read back in the
// same pass, a 30 s requeue while CREATING or UPDATING and after an
// UpdateNodePool, and in ACTIVE the providerIDList of the ACTIVE nodes'
// bare OCIDs with a 300 s resync. Any other state is an error on every pass,
// never terminal. Deletion polls every 30 s.
#pragma once

#include <map>
#include <string>

#include "api/reconciler.h"
#include "models/oci/node_pool.h"
#include "sim/recorder.h"

namespace mpsim::oci {

inline constexpr const char* kOciManagedMachinePoolKind = "OCIManagedMachinePool";
inline constexpr const char* kOciManagedMachinePoolFinalizer =
    "ocimanagedmachinepool.infrastructure.cluster.x-k8s.io";
// spec.id of the OCIManagedMachinePool, kept in spec.providerSpec as
// providerID (oci-scaleway.md §2.1 step 5) is.
inline constexpr const char* kNodePoolIdField = "id";

// The requeues of docs/reference/oci-scaleway.md §2.5.
inline constexpr Duration kOkeBusyRequeue = 30 * kSecond;
inline constexpr Duration kOkeActiveRequeue = 300 * kSecond;

class OciManagedMachinePoolReconciler : public Reconciler {
 public:
  OciManagedMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                                  std::map<std::string, NodePool*> pools);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp, NodePool* pool,
                         Result* result);
  // The ACTIVE branch (mctl:322-348); writes into `next`.
  Status ReconcileActive(InfraMachinePool* next, const MachinePool& mp, NodePool* pool,
                         Result* result);
  // UpdateNodePool (mmp:599-734) reduced to what the model tells apart: the
  // Kubernetes version, and the size unless the autoscaler owns it. Sets
  // *sent when it called the API.
  Status UpdateNodePool(const InfraMachinePool& imp, const MachinePool& mp, NodePool* pool,
                        bool* sent);
  Status ReconcileDelete(const InfraMachinePool& imp, NodePool* pool, Result* result);
  Status Close(const InfraMachinePool& base, InfraMachinePool* next);
  void Call(const InfraMachinePool& imp, const char* api);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  std::map<std::string, NodePool*> pools_;  // by OCIManagedMachinePool name
};

}  // namespace mpsim::oci
