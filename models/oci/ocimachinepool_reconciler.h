// CAPOCI's OCIMachinePool controller (exp/controllers/ocimachinepool_controller.go,
// docs/reference/oci-scaleway.md §1) driving simulated instance pools:
// a new instance configuration whenever the version or the bootstrap data
// changes, the pool created at the MachinePool's size, then per lifecycle
// state a 10 s requeue while PROVISIONING or SCALING, the RUNNING pass
// (providerIDList of the RUNNING instances, the autoscaler's size copied
// back, UpdateInstancePool of size and configuration) with a 300 s resync,
// and any other state a terminal failure. Deletion polls every 30 s.
#pragma once

#include <map>
#include <string>

#include "api/reconciler.h"
#include "models/oci/instance_pool.h"
#include "sim/recorder.h"

namespace mpsim::oci {

// Cluster API's annotation for replicas an external autoscaler owns; both
// OCI controllers then leave the pool's size alone.
inline constexpr const char* kReplicasManagedBy = "cluster.x-k8s.io/replicas-managed-by";
inline constexpr const char* kOciMachinePoolKind = "OCIMachinePool";
inline constexpr const char* kOciMachinePoolFinalizer =
    "ocimachinepool.infrastructure.cluster.x-k8s.io";
// Spec fields of the OCIMachinePool the controller writes (kept in
// spec.providerSpec): spec.providerID, spec.ocid and
// spec.instanceConfiguration.instanceConfigurationId.
inline constexpr const char* kProviderIdField = "providerID";
inline constexpr const char* kOcidField = "ocid";
inline constexpr const char* kInstanceConfigurationIdField =
    "instanceConfiguration.instanceConfigurationId";

// The requeues of docs/reference/oci-scaleway.md §1.6.
inline constexpr Duration kOciNotReadyRequeue = 10 * kSecond;
inline constexpr Duration kOciRunningRequeue = 300 * kSecond;
inline constexpr Duration kOciDeleteRequeue = 30 * kSecond;

class OciMachinePoolReconciler : public Reconciler {
 public:
  OciMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                           std::map<std::string, InstancePool*> pools);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp, InstancePool* pool,
                         Result* result);
  // The RUNNING branch (ctl:362-405); writes into `next`.
  Status ReconcileRunning(InfraMachinePool* next, const MachinePool& mp, InstancePool* pool);
  Status ReconcileDelete(const InfraMachinePool& imp, InstancePool* pool, Result* result);
  // ReconcileInstanceConfiguration (cloud/scope/machine_pool.go): a new one
  // when the version or the bootstrap data's hash differs from the current.
  Status ReconcileInstanceConfiguration(InfraMachinePool* next, const MachinePool& mp,
                                        InstancePool* pool);
  // SetReplicaCount with the autoscaler annotation: the pool's size into
  // MachinePool.spec.replicas (mp:188-214).
  Status SyncReplicas(const MachinePool& mp, const InstancePool& pool);
  // UpdatePool (mp:822-872): size and configuration only.
  Status UpdatePool(const InfraMachinePool& next, const MachinePool& mp, InstancePool* pool);
  // The scope's Close(): one patch of everything this pass changed.
  Status Close(const InfraMachinePool& base, InfraMachinePool* next);
  void Call(const InfraMachinePool& imp, const char* api);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  std::map<std::string, InstancePool*> pools_;  // by OCIMachinePool name
};

}  // namespace mpsim::oci
