// CAPZ's AzureManagedMachinePool controller
// (controllers/azuremanagedmachinepool_controller.go and _reconciler.go,
// docs/reference/azure-managed.md §1): the agent-pool service writes the ASO
// ManagedClustersAgentPool and waits 20 s at a time while ASO is not done;
// then the pool's scale set is found by its `poolName` tag, every VM is
// listed, and the sorted providerIDs, their number as status.replicas and
// ready=true are written. Any error sets ready=false first. Wrapped in the
// coalescing reconciler (10 s debounce after a pass without error).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "api/reconciler.h"
#include "models/aks/agent_pool.h"
#include "models/aks/arm_bucket.h"
#include "models/aks/aso_agent_pool.h"
#include "models/aks/aso_service.h"
#include "models/aks/scale_set.h"
#include "sim/recorder.h"
#include "util/shared_string.h"

namespace mpsim::aks {

// infrav1.ClusterFinalizer, which the AMMP uses too (docs/reference/azure-managed.md §7).
inline constexpr const char* kAzureManagedMachinePoolFinalizer =
    "azurecluster.infrastructure.cluster.x-k8s.io";
inline constexpr const char* kReplicasManagedByAnnotation = "cluster.x-k8s.io/replicas-managed-by";
// rec:149-151: the pool's scale set is not listed yet.
inline constexpr Duration kVmssNotFoundRequeue = 20 * kSecond;
// --debouncing-timer (main.go:199-203).
inline constexpr Duration kCapzDebounce = 10 * kSecond;

class AzureManagedMachinePoolReconciler : public Reconciler {
 public:
  struct Pool {
    ScaleSet* vmss = nullptr;
    AsoAgentPool* aso = nullptr;
    const AksOptions* opts = nullptr;
  };
  AzureManagedMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                                    ArmBuckets* arm, std::map<std::string, Pool> pools);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  struct PoolState {
    Time last_clean = -1;           // the coalescing reconciler's last pass without error
    uint64_t ids_revision = ~0ull;  // the scale-set revision `ids` was built from
    std::vector<SharedString> ids;  // sorted providerIDs
  };
  Status ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool,
                         Result* result);
  Status ReconcileDelete(const InfraMachinePool& imp, const Pool& pool, Result* result);
  // The agent-pool service and its post hook (§1.3-§1.6).
  ServiceResult ReconcileAgentPool(const MachinePool& mp, const Pool& pool);
  // ap:61-78: under AKS autoscaling the MachinePool's replicas follow status.count.
  Status PostCreateOrUpdate(const MachinePool& mp, const Pool& pool);
  // rec:130-176: list the scale set's VMs and write the providerIDs.
  Status ReconcileVmss(const InfraMachinePool& imp, const Pool& pool, Result* result);
  Status BuildIds(const Pool& pool, PoolState& st);
  Status WriteStatus(const InfraMachinePool& imp, bool ready, const std::vector<SharedString>* ids);
  Duration Call(const InfraMachinePool& imp, const char* api);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  ArmBuckets* arm_;
  std::map<std::string, Pool> pools_;
  std::map<std::string, PoolState> state_;
};

}  // namespace mpsim::aks
