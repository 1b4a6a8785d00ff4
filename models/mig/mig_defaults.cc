// Defaults of the `mig` provider block, with their sources (docs/defaults.md
// shows the same rows). Kept apart so each cloud model grows its own table.
#include "models/mig/mig_schema.h"

namespace mpsim::mig {

std::vector<scenario::DefaultEntry> Defaults() {
  // LN(median, p95) figures of docs/reference/providers.md §4 are converted to p99 as in
  // scenario_defaults.cc.
  return {
      {"spec.machinePools[].provider.mig.zones", "[us-central1-a]", "", "mpsim choice: one zone",
       "-"},
      {"spec.machinePools[].provider.mig.capacity", "{}", "", "unlimited in every zone", "-"},
      {"spec.machinePools[].provider.mig.launchDelay", "{dist: lognormal, median: 12s, p99: 25s}",
       "",
       "docs/reference/providers.md §3.4, §4.3 VM insert -> RUNNING LN(12s, p95 20s): GCE "
       "create -> SSH is 23-25 s (Aboukhalil 2018) and RUNNING comes before the boot, which "
       "nodeRegistration counts",
       "L"},
      {"spec.machinePools[].provider.mig.deleteDelay", "{dist: lognormal, median: 40s, p99: 189s}",
       "", "docs/reference/providers.md §4.3 VM delete LN(40s, p95 120s)", "L"},

      {"spec.machinePools[].provider.mig.reactionDelay", "{dist: lognormal, median: 2s, p99: 19s}",
       "", "docs/reference/providers.md §4.3 MIG resize -> instance CREATING LN(2s, p95 10s)", "L"},
      {"spec.machinePools[].provider.mig.stockoutRetry",
       "{dist: lognormal, median: 60s, p99: 585s}", "",
       "docs/reference/providers.md §4.3 stockout retry interval LN(60s, p95 300s), unbounded "
       "retries",
       "L"},
      {"spec.machinePools[].provider.mig.stockoutProbability", "0", "",
       "docs/reference/providers.md §4.3 P(stockout per create attempt): scenario knob, default 0",
       "L"},
      {"spec.machinePools[].provider.mig.updatePolicy", "OPPORTUNISTIC", "",
       "docs/reference/providers.md §3.2, §4.3 MIG default when CAPG sets none (d: "
       "the setInstanceTemplate reference)",
       "M"},
      {"spec.machinePools[].provider.mig.updateMaxSurge", "1", "",
       "docs/reference/providers.md §3.2, §4.3 maxSurge default = number of zones (1: CAPG's MIG "
       "has one zone)",
       "M"},
      {"spec.machinePools[].provider.mig.updateMaxUnavailable", "1", "",
       "docs/reference/providers.md §3.2, §4.3 maxUnavailable default 1 (older docs; current text "
       "unverified)",
       "M"},
      {"spec.machinePools[].provider.mig.updateMinimalAction", "REPLACE", "",
       "docs/reference/providers.md §4.3 minimalAction REPLACE when CAPG sets none (unverified)",
       "L"},
      {"spec.machinePools[].provider.mig.updateReplacementMethod", "SUBSTITUTE", "",
       "docs/reference/providers.md §3.2, §4.3 replacementMethod default SUBSTITUTE (GCE REST doc)",
       "M"},
      {"spec.machinePools[].provider.mig.apiRequestsPerMinute", "1500", "",
       "docs/reference/providers.md §4.3 per-minute Compute API quota (older default table)", "M"},
      {"spec.machinePools[].provider.mig.project", "mpsim-project", "", "mpsim choice", "-"},
      {"spec.machinePools[].provider.mig.malformedUrlProbability", "0", "",
       "fault off unless asked; no upstream issue reports it (docs/reference/providers.md §3.5)",
       "-"},
      {"spec.machinePools[].provider.mig.preemptible", "false", "",
       "CAPG GCPMachinePool preemptible unset: standard VMs; true stops each VM after 24 h "
       "(docs/reference/providers.md §3.3, §4.3, GCE preemptible doc)",
       "H"},
      {"spec.machinePools[].provider.mig.preemptionProbability", "0", "",
       "fault off unless asked; GCE publishes no preemption rate (docs/reference/providers.md "
       "§3.3)",
       "-"},
      {"spec.machinePools[].provider.mig.stagingFraction", "0.5", "",
       "mpsim choice: docs/reference/providers.md §3.1 names PROVISIONING -> STAGING -> RUNNING "
       "but no "
       "split of the launch time (unverified)",
       "-"},
      {"spec.machinePools[].provider.mig.gke", "false", "",
       "mpsim choice: a plain MIG behind GCPMachinePool", "-"},
      {"spec.machinePools[].provider.mig.upgradeSettings.maxSurge", "1", "",
       "docs/reference/providers.md §3.2, §4.3 GKE surge default maxSurge 1 (CAPG sets no "
       "upgradeSettings)",
       "M"},
      {"spec.machinePools[].provider.mig.upgradeSettings.maxUnavailable", "0", "",
       "docs/reference/providers.md §3.2, §4.3 GKE surge default maxUnavailable 0", "M"},
      {"spec.machinePools[].provider.mig.nodePoolOperationDelay",
       "{dist: uniform, min: 30s, max: 45s}", "",
       "docs/reference/providers.md §3.4 \"creating a new, empty node pool could take 30-45 "
       "seconds\" "
       "(secondary, unverified), used for every node-pool operation",
       "L"},
      {"spec.machinePools[].provider.mig.gkeAutoscaling.enabled", "false", "",
       "docs/reference/providers.md §3.6.2: CAPG sends no autoscaling unless spec.scaling is set",
       "H"},
      {"spec.machinePools[].provider.mig.gkeAutoscaling.minNodeCount", "0", "",
       "mpsim choice: no lower bound (GKE's API takes 0 and up)", "-"},
      {"spec.machinePools[].provider.mig.gkeAutoscaling.maxNodeCount", "1000", "",
       "mpsim choice: GKE's limit of 1,000 nodes per node-pool zone (GKE quotas doc, not in "
       "docs/reference/providers.md; unverified)",
       "L"},
      {"spec.machinePools[].provider.mig.imageType", "COS_CONTAINERD", "",
       "GKE's default node image (GKE docs, not in docs/reference/providers.md; unverified)", "L"},
      {"spec.machinePools[].provider.mig.initialNodeCountFollowsSize", "true", "",
       "docs/reference/providers.md §3.6.2, §5: whether GKE updates initialNodeCount after "
       "SetNodePoolSize is "
       "unverified; true keeps CAPG's size check from repeating",
       "L"},
      {"spec.machinePools[].provider.mig.kubernetesLabels", "\"\"", "",
       "CAPG GCPManagedMachinePool spec.kubernetesLabels unset: no labels of the pool's own", "H"},
      {"spec.machinePools[].provider.mig.kubernetesTaints", "\"\"", "",
       "CAPG GCPManagedMachinePool spec.kubernetesTaints unset: no taints of the pool's own", "H"},
      {"spec.machinePools[].provider.mig.resourceLabels", "\"\"", "",
       "CAPG GCPManagedMachinePool spec.additionalLabels unset: no GCE labels of the pool's own "
       "(CAPG's capg-cluster-<name>=owned label is left out); a change is applied in place "
       "(assumed)",
       "L"},
      {"spec.machinePools[].provider.mig.networkTags", "\"\"", "",
       "CAPG GCPManagedMachinePool spec.nodeNetwork.tags unset: no network tags; a change is "
       "applied in place (GKE docs, \"Update Kubernetes node labels and taints for node pools\": "
       "network tags are updated dynamically)",
       "H"},
      {"spec.machinePools[].provider.mig.linuxSysctls", "\"\"", "",
       "CAPG GCPManagedMachinePool spec.linuxNodeConfig unset: no sysctls; a change recreates "
       "the nodes by surge steps (assumed from GKE's node system configuration docs)",
       "M"},
      {"spec.machinePools[].provider.mig.linuxCgroupMode", "\"\"", "",
       "CAPG spec.linuxNodeConfig.cgroupMode unset: CGROUP_MODE_UNSPECIFIED (GKE's default); a "
       "change recreates the nodes, as sysctls",
       "M"},
  };
}

}  // namespace mpsim::mig
