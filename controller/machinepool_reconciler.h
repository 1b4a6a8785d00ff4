// The Cluster API core MachinePool reconciler (v1.14,
// core/reconcilers/machinepool) ported onto the mpsim Client and Clock.
#pragma once

#include "api/client.h"
#include "api/reconciler.h"
#include "api/time.h"
#include "controller/machinepool_internal.h"
#include "controller/options.h"

namespace mpsim {

class MachinePoolReconciler : public Reconciler {
 public:
  // `client` and `clock` must outlive the reconciler.
  MachinePoolReconciler(Client* client, const Clock* clock, MachinePoolOptions opts);
  MachinePoolReconciler(const MachinePoolReconciler&) = delete;
  MachinePoolReconciler& operator=(const MachinePoolReconciler&) = delete;

  // SetupWithManager: MachinePools, Cluster pause transitions, owned bootstrap
  // configs and infra pools, InfraMachines by labels, workload Nodes.
  void Setup(Builder* b) override;
  // One pass of machinepool_controller.go Reconcile, including its deferred
  // status patch; atomic in simulated time.
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status EnsureFinalizer(MachinePool* mp, bool* added);
  Status EnsurePausedCondition(const Cluster& cluster, MachinePool* mp, bool* paused,
                               bool* changed);
  Status Finalize(MachinePoolScope* s, const MachinePool& before, Status err, Result* result);

  MachinePoolDeps deps_;
};

// isMachinePoolNodeDeleteTimeoutPassed: deleting, a non-zero
// nodeDeletionTimeoutSeconds, and deletionTimestamp + timeout strictly before now.
bool IsMachinePoolNodeDeleteTimeoutPassed(const MachinePool& mp, Time now);

}  // namespace mpsim
