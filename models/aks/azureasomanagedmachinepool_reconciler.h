// CAPZ's AzureASOManagedMachinePool controller
// (controllers/azureasomanagedmachinepool_controller.go, the resource
// reconciler and the agent-pool mutators, docs/reference/azure-managed.md §2):
// status.ready is false from the start of every pass; the user's
// ManagedClustersAgentPool is applied with the MachinePool's version and
// replicas; while it is not ready (Ready True at its generation) the pass
// ends with no requeue and the ASO watch brings the next one. Then the
// workload Nodes labelled with the agent pool and the node resource group
// give the sorted providerIDList (any Node without a providerID: Requeue,
// the list not written), status.replicas is the AgentPool's status.count,
// and ready is true.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/reconciler.h"
#include "models/aks/aso_agent_pool.h"
#include "sim/recorder.h"

namespace mpsim::aks {

// docs/reference/azure-managed.md §7.
inline constexpr const char* kAzureAsoManagedMachinePoolFinalizer =
    "azureASOManagedMachinePool.infrastructure.cluster.x-k8s.io";
// The annotation recording the resource kinds applied (rr:134-142, §7).
inline constexpr const char* kAsoResourcesAnnotation =
    "sigs.k8s.io/cluster-api-provider-azure-owned-aso-kinds";
// The replicas-managed-by value the mutator sets under autoscaling (mut:117).
inline constexpr const char* kAksReplicasManager = "aks";

class AzureAsoManagedMachinePoolReconciler : public Reconciler {
 public:
  struct Pool {
    AsoAgentPool* aso = nullptr;
    const AksOptions* opts = nullptr;
  };
  AzureAsoManagedMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                                       std::map<std::string, Pool> pools);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool,
                         Result* result);
  Status ReconcileDelete(const InfraMachinePool& imp, const Pool& pool);
  // The mutators (mut:38-171) and the apply (rr:115-309); false: not ready.
  Status ApplyAgentPool(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool,
                        bool* ready);
  // actl:259-277: the Nodes' providerIDs; false: a Node has none yet.
  Status ListProviderIds(const MachinePool& mp, const Pool& pool, std::vector<SharedString>* ids,
                         bool* complete);
  Status WriteStatus(const InfraMachinePool& imp, bool ready, const std::vector<SharedString>* ids,
                     std::optional<int32_t> replicas);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  std::map<std::string, Pool> pools_;
};

}  // namespace mpsim::aks
