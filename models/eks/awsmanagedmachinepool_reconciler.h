// CAPA's AWSManagedMachinePool controller (exp/controllers/
// awsmanagedmachinepool_controller.go and pkg/cloud/services/eks/
// nodegroup.go, docs/reference/aws-managed.md §1) driving simulated EKS
// managed node groups: create, setStatus (providerIDList only while ACTIVE
// or UPDATING), the blocking NodegroupActive and NodegroupDeleted waiters
// that hold the pass's worker (Result::hold_for), one minor version per
// UpdateNodegroupVersion, the scaling config, and no timed requeue of its own.
#pragma once

#include <map>
#include <string>

#include "api/reconciler.h"
#include "models/eks/eks_api_throttle.h"
#include "models/eks/node_group.h"
#include "sim/random.h"
#include "sim/recorder.h"

namespace mpsim::eks {

inline constexpr const char* kAwsManagedMachinePoolKind = "AWSManagedMachinePool";
inline constexpr const char* kAwsManagedMachinePoolFinalizer =
    "awsmanagedmachinepools.infrastructure.cluster.x-k8s.io";
inline constexpr const char* kReplicasManagedBy = "cluster.x-k8s.io/replicas-managed-by";

// AWSManagedMachinePool spec.scaling: each bound as a `setInfraPoolSpec`
// edit last set it, else as the block has it.
struct ScalingBounds {
  std::optional<int32_t> min_size, max_size;
};
ScalingBounds ScalingBoundsOf(const InfraMachinePool& imp, const EksOptions& opts);

// The scaling config CAPA sends for `mp` (§1.5, ng:96-115): desired from the
// replicas (1 when unset); min and max only when maxSize is set, where a nil
// minSize is a nil dereference (recovered as an error).
Status ScalingConfigOf(const MachinePool& mp, const ScalingBounds& bounds, ScalingConfig* out);
// The kubelet version of the AMI EKS picks for `minor`: the MachinePool's
// version when it is of that minor, else `v<minor>.0` (mpsim choice).
std::string KubeletFor(const std::string& minor, const std::string& mp_version);

class AwsManagedMachinePoolReconciler : public Reconciler {
 public:
  struct Pool {
    NodeGroup* node_group;
    Rng* waiter_rng;  // the pool's own stream for the waiters' jitter
  };
  // `throttle` is the account's API buckets; nullptr: calls are never throttled.
  AwsManagedMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                                  std::map<std::string, Pool> pools,
                                  EksApiThrottle* throttle = nullptr);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  // A waiter in progress: the pass that started it holds its worker.
  struct Waiter {
    bool deleted = false;  // NodegroupDeleted; else NodegroupActive
    Time start = 0;
    int64_t attempt = 0;
  };
  Status ReconcileNodegroup(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool,
                            Result* result);
  // After the node group is known ACTIVE: the replicas under an external
  // autoscaler, the version, the config (ng:545-577).
  Status ReconcileChanges(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool);
  Status ReconcileVersion(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool);
  Status ReconcileConfig(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool,
                         const ScalingConfig& described);
  Status SetStatus(const InfraMachinePool& imp, const Pool& pool);
  Status ReconcileDelete(const InfraMachinePool& imp, const Pool& pool, Result* result);
  Status RemoveFinalizer(const InfraMachinePool& imp);
  // The waiters: one poll now, then hold the worker until the next.
  Status StartWait(const Request& req, bool deleted, const Pool& pool, Result* result);
  Status Poll(const Request& req, const Pool& pool, Result* result);
  // The pass after the waiter's success or failure (ng:643-651, ng:538-561).
  Status AfterActive(const Request& req, const Pool& pool, const Status& waited);
  Status AfterDeleted(const Request& req, const Status& waited);
  // Counts the call and spends its token; the AWS error if it is throttled.
  Status Call(const std::string& pool, const char* api);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  EksApiThrottle* throttle_;
  std::map<std::string, Pool> pools_;      // by AWSManagedMachinePool name
  std::map<std::string, Waiter> waiters_;  // by AWSManagedMachinePool name
};

}  // namespace mpsim::eks
