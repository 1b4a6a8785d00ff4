// CAPG's GCPManagedMachinePool controller (GKE; cloud/services/container/
// nodepools/reconcile.go, docs/reference/providers.md §3.6.2) driving simulated node pools:
// create, config update (version, image type, Kubernetes labels and taints,
// resource labels, node locations, network tags, linuxNodeConfig),
// autoscaling and setSize as node-pool operations, providerIDList from every
// managed instance, a 1-minute requeue only while GKE is busy.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "api/reconciler.h"
#include "models/mig/api_quota.h"
#include "models/mig/node_pool.h"
#include "sim/recorder.h"

namespace mpsim::mig {

// The GCPManagedMachinePool spec fields CAPG compares with the node pool: the
// block's values, overridden by the InfraMachinePool's spec.providerSpec keys
// of the same names (the `setInfraPoolSpec` event). Labels and taints are
// text in the kubelet's syntax (api/node_config_text.h), the other config
// fields text as api/gke_config_text.h reads it.
inline constexpr const char* kImageTypeField = "imageType";
inline constexpr const char* kAutoscalingEnabledField = "gkeAutoscaling.enabled";
inline constexpr const char* kAutoscalingMinField = "gkeAutoscaling.minNodeCount";
inline constexpr const char* kAutoscalingMaxField = "gkeAutoscaling.maxNodeCount";
inline constexpr const char* kKubernetesLabelsField = "kubernetesLabels";
inline constexpr const char* kKubernetesTaintsField = "kubernetesTaints";
inline constexpr const char* kResourceLabelsField = "resourceLabels";
inline constexpr const char* kNetworkTagsField = "networkTags";
inline constexpr const char* kLinuxSysctlsField = "linuxSysctls";
inline constexpr const char* kLinuxCgroupModeField = "linuxCgroupMode";
inline constexpr const char* kNodeLocationsField = "nodeLocations";

inline constexpr const char* kGcpManagedMachinePoolKind = "GCPManagedMachinePool";
inline constexpr const char* kGcpManagedMachinePoolFinalizer =
    "gcpmanagedmachinepool.infrastructure.cluster.x-k8s.io";

class GcpManagedMachinePoolReconciler : public Reconciler {
 public:
  struct Pool {
    NodePool* node_pool;
    std::string project;
    NodePoolConfig config;       // the block's, before any edit (no version)
    GkeAutoscaling autoscaling;  // the block's, before any edit
  };
  GcpManagedMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                                  ApiQuota* quota, std::map<std::string, Pool> pools);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool,
                         Result* result);
  // The node-pool calls after the status is written; any of them busies GKE.
  Status ReconcileChanges(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool,
                          Result* result);
  Status ReconcileDelete(const InfraMachinePool& imp, const Pool& pool, Result* result);
  Status WriteStatus(const InfraMachinePool& imp, const Pool& pool);
  // The GKEMachinePoolUpdating condition, kept here and shown as a timeline
  // row (GCPManagedMachinePool,<name>,GKEMachinePoolUpdating) when it changes.
  void SetUpdating(const InfraMachinePool& imp, bool updating);
  // A config, autoscaling or size call's answer: Updating on success, then Busy.
  Status Started(const InfraMachinePool& imp, Status s, Result* result);
  // A node-pool operation's answer: FailedPrecondition (another operation in
  // progress) is a 1-minute requeue, not an error.
  Status Busy(Status s, Result* result) const;
  // One API call, counted; Compute calls also spend the project's quota.
  Status Call(const InfraMachinePool& imp, const char* api);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  ApiQuota* quota_;
  std::map<std::string, Pool> pools_;     // by GCPManagedMachinePool name
  std::map<std::string, bool> updating_;  // GKEMachinePoolUpdating, by name
};

}  // namespace mpsim::mig
