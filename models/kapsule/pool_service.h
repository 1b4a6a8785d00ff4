// CAPS's Kapsule pool service (internal/service/scaleway/k8s/pool/pool.go,
// docs/reference/oci-scaleway.md §3.1-§3.4) over a simulated pool: Reconcile
// and Delete, whose waits are transient errors retried after poolRetryTime.
// The Kapsule cluster is the one the scenario's workload cluster stands for,
// always found and `ready` (its own lifecycle is not modelled), so the
// cluster-name, cluster-not-found and cluster-not-ready branches never fire.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/objects.h"
#include "api/status.h"
#include "models/kapsule/kapsule_options.h"
#include "models/kapsule/kapsule_pool.h"
#include "sim/recorder.h"

namespace mpsim::kapsule {

// pool.go poolRetryTime (§3.5).
inline constexpr Duration kPoolRetryTime = 30 * kSecond;

// What the scope (internal/scope/managedmachinepool.go) derives from the
// MachinePool and the ScalewayManagedMachinePool (§3.3).
struct DesiredPool {
  int32_t size = 3;                    // spec.replicas, or 3 when nil (Scaling)
  std::optional<std::string> version;  // spec.template.spec.version without `v` (DesiredVersion)
  UpgradePolicy upgrade_policy;        // DesiredPoolUpgradePolicy
};

// The scope's reading of `mp` and the pool's block.
DesiredPool DesiredOf(const MachinePool& mp, const UpgradePolicy& policy);

// scaleway.ReconcileError (internal/service/scaleway/errors.go): an error
// that carries a retry interval is transient; the controller requeues after
// it with no error (§3.1).
struct ServiceError {
  Status error;                // ok: the service succeeded
  Duration requeue_after = 0;  // above 0: transient
  static ServiceError Ok() { return {}; }
  static ServiceError Transient(std::string message) {
    return {Status::Unavailable(std::move(message)), kPoolRetryTime};
  }
  bool ok() const { return error.ok(); }
};

class PoolService {
 public:
  PoolService(KapsulePool* pool, Recorder* rec, std::string name)
      : pool_(pool), rec_(rec), name_(std::move(name)) {}

  // Reconcile: finds or creates the pool, waits while it is not `ready`,
  // upgrades it, updates its size or upgrade policy, and on success sets
  // `imp`'s providerIDList (SetProviderIDs) and status.replicas
  // (SetStatusReplicas), as the scope does before it is patched.
  ServiceError Reconcile(const DesiredPool& desired, InfraMachinePool* imp);
  // Delete: nil once the pool is gone; DeletePool unless it is `deleting`,
  // then transient.
  ServiceError Delete();

 private:
  // getOrCreatePool: the pool CreatePool returns is the one the pass goes on with.
  ServiceError GetOrCreatePool(const DesiredPool& desired);
  // updatePool: true when UpdatePool was called.
  bool UpdatePool(const DesiredPool& desired);
  void Call(const char* api);

  KapsulePool* pool_;
  Recorder* rec_;
  std::string name_;  // the ScalewayManagedMachinePool's, for the API call counts
};

// SetProviderIDs (scope/managedmachinepool.go, §3.2): every node's
// providerID as ListNodes returns it, empty ones skipped, in list order.
ProviderIDList ProviderIdsOf(const KapsulePool& pool);

}  // namespace mpsim::kapsule
