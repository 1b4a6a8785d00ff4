// CAPS's ScalewayManagedMachinePool controller (internal/controller/
// scalewaymanagedmachinepool_controller.go, docs/reference/oci-scaleway.md
// §3.1, §3.6): the owner MachinePool and the Cluster's pause, then reconcileNormal (finalizer, the
// pool service, ready and provisioned on success with no periodic requeue) or reconcileDelete (the
// finalizer goes once the pool is gone); a transient service error is a RequeueAfter with no error.
#pragma once

#include <map>
#include <string>

#include "api/reconciler.h"
#include "models/kapsule/kapsule_options.h"
#include "models/kapsule/kapsule_pool.h"
#include "models/kapsule/pool_service.h"
#include "sim/recorder.h"

namespace mpsim::kapsule {

inline constexpr const char* kScalewayManagedMachinePoolKind = "ScalewayManagedMachinePool";
inline constexpr const char* kScalewayManagedMachinePoolFinalizer =
    "scalewaymanagedmachinepool.infrastructure.cluster.x-k8s.io/smmp-protection";

class ScalewayManagedMachinePoolReconciler : public Reconciler {
 public:
  struct Pool {
    KapsulePool* pool;
    UpgradePolicy upgrade_policy;  // the ScalewayManagedMachinePool's spec.upgradePolicy
  };
  ScalewayManagedMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                                       std::map<std::string, Pool> pools);
  // SetupWithManager (docs/reference/oci-scaleway.md §3.6): every event of
  // its own kind (no predicate drops status updates), every MachinePool
  // mapped to its infrastructureRef, and the Cluster's pause transitions.
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachinePool& base, InfraMachinePool* imp, const MachinePool& mp,
                         const Pool& pool, Result* result);
  Status ReconcileDelete(InfraMachinePool* imp, const Pool& pool, Result* result);
  // The controller's handling of the service's answer (§3.1): transient is
  // RequeueAfter with no error, anything else an error.
  Status Requeue(const ServiceError& e, Result* result) const;
  // The PoolReady condition: False (TransientStatus) while the service waits,
  // True once it succeeds; a timeline row
  // (ScalewayManagedMachinePool,<name>,PoolReady) when it changes.
  void SetPoolReady(const std::string& name, bool ready);
  // scope.Close: patches what the pass changed.
  Status Close(const InfraMachinePool& base, InfraMachinePool* imp);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  std::map<std::string, Pool> pools_;       // by ScalewayManagedMachinePool name
  std::map<std::string, bool> pool_ready_;  // PoolReady, by name
};

}  // namespace mpsim::kapsule
