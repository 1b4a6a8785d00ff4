// CAPA's ROSAMachinePool controller (exp/controllers/
// rosamachinepool_controller.go, docs/reference/aws-managed.md §3) driving
// simulated ROSA NodePools: create (no requeue), replicas through
// UpdateNodePool, providerIDList from EC2 instances running or pending on
// every pass that finds the pool, a 60 s requeue only while the NodePool is
// not ready, and upgrades scheduled at least 6 min ahead on a ready pass.
#pragma once

#include <map>
#include <string>

#include "api/reconciler.h"
#include "models/rosa/node_pool.h"
#include "models/rosa/rosa_api_throttle.h"
#include "sim/recorder.h"

namespace mpsim::rosa {

inline constexpr const char* kRosaMachinePoolKind = "ROSAMachinePool";
inline constexpr const char* kRosaMachinePoolFinalizer =
    "rosamachinepools.infrastructure.cluster.x-k8s.io";
inline constexpr const char* kReplicasManagedBy = "cluster.x-k8s.io/replicas-managed-by";
// rctl:291: the requeue while the NodePool is not ready.
inline constexpr Duration kNotReadyRequeue = 60 * kSecond;
// pkg/rosa/versions.go:75-81: OCM wants 5 min, CAPA adds 1 for latency.
inline constexpr Duration kUpgradeLeadTime = 6 * kMinute;

// pkg/rosa/helpers.go:15-29 for a pool without autoscaling: ready when the
// replicas are non-zero and all current (a fixed pool of 0 is never ready).
inline bool NodePoolReady(int32_t replicas, int32_t current) {
  return replicas != 0 && current == replicas;
}

class RosaMachinePoolReconciler : public Reconciler {
 public:
  // `throttle` is the API buckets; nullptr: calls are never throttled.
  RosaMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                            std::map<std::string, NodePool*> pools,
                            RosaApiThrottle* throttle = nullptr);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileFound(const InfraMachinePool& imp, const MachinePool& mp, NodePool* np,
                        Result* result);
  Status ReconcileCreate(const InfraMachinePool& imp, const MachinePool& mp, NodePool* np);
  // reconcileMachinePoolVersion (rctl:342-377).
  Status ReconcileVersion(const InfraMachinePool& imp, const MachinePool& mp, NodePool* np);
  Status ReconcileDelete(const InfraMachinePool& imp, NodePool* np);
  // Counts the call and spends its token; the error if it is throttled.
  Status Call(const std::string& pool, const char* api);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  RosaApiThrottle* throttle_;
  std::map<std::string, NodePool*> pools_;  // by ROSAMachinePool name
};

}  // namespace mpsim::rosa
