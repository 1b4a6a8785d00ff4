// Defaults of the `aks` provider block, with their sources (docs/defaults.md
// shows the same rows). No Microsoft page publishes AKS's durations
// (docs/reference/azure-managed.md §3.5): every delay is a knob marked L.
#include "models/aks/aks_schema.h"

namespace mpsim::aks {

std::vector<scenario::DefaultEntry> Defaults() {
  return {
      {"spec.machinePools[].provider.aks.zones", "[\"1\"]", "", "mpsim choice: one zone", "-"},
      {"spec.machinePools[].provider.aks.capacity", "{}", "", "unlimited in every zone", "-"},
      {"spec.machinePools[].provider.aks.launchDelay", "{dist: lognormal, median: 60s, p99: 284s}",
       "",
       "docs/reference/azure-managed.md §3.5 not published; the vmss block's VM Creating -> "
       "Succeeded (docs/reference/providers.md §4.2)",
       "L"},
      {"spec.machinePools[].provider.aks.deleteDelay", "{dist: lognormal, median: 60s, p99: 284s}",
       "",
       "docs/reference/azure-managed.md §3.5 not published; the vmss block's VM delete "
       "(docs/reference/providers.md §4.2)",
       "L"},
      {"spec.machinePools[].provider.aks.kind", "AzureManagedMachinePool", "",
       "issue 50: the kind most AKS clusters of CAPZ use; docs/reference/azure-managed.md §1", "-"},
      {"spec.machinePools[].provider.aks.agentPoolName", "\"\"", "",
       "mpsim choice: the pool's name reduced to AKS's rule (lowercase alphanumerics, at most 12; "
       "docs/reference/azure-managed.md §1.9)",
       "-"},
      {"spec.machinePools[].provider.aks.nodeResourceGroup", "MC_mpsim-rg_mpsim-aks_eastus", "",
       "mpsim choice: AKS's MC_<group>_<cluster>_<location> form, capitals kept so that the "
       "providerIDs show the lowercasing (docs/reference/azure-managed.md §1.5)",
       "-"},
      {"spec.machinePools[].provider.aks.operationDelay",
       "{dist: lognormal, median: 10s, p99: 60s}", "",
       "docs/reference/azure-managed.md §3.5 not published: AKS operation accepted -> scale set "
       "changes, a scenario knob",
       "L"},
      {"spec.machinePools[].provider.aks.asoReconcileDelay",
       "{dist: lognormal, median: 2s, p99: 10s}", "",
       "docs/reference/azure-managed.md §3.4 not published: ASO sees a change -> its status, a "
       "scenario knob",
       "L"},
      {"spec.machinePools[].provider.aks.asoSyncPeriod", "1h", "",
       "docs/reference/azure-managed.md §3.4 ASO AZURE_SYNC_PERIOD default, which CAPZ keeps", "H"},
      {"spec.machinePools[].provider.aks.asoBlockedRetry", "1m", "",
       "docs/reference/azure-managed.md §3.2 ASO retries a blocked reconcile slowly; the interval "
       "is unverified, a scenario knob",
       "L"},
      {"spec.machinePools[].provider.aks.maxSurge", "\"10%\"", "",
       "docs/reference/azure-managed.md §3.3 AgentPoolUpgradeSettings.maxSurge default 10 %, "
       "rounded up (older API versions: 1)",
       "M"},
      {"spec.machinePools[].provider.aks.maxUnavailable", "\"0\"", "",
       "docs/reference/azure-managed.md §3.3 AgentPoolUpgradeSettings.maxUnavailable default", "H"},
      {"spec.machinePools[].provider.aks.drainTimeout", "30m", "",
       "docs/reference/azure-managed.md §3.3 drainTimeoutInMinutes default", "H"},
      {"spec.machinePools[].provider.aks.nodeSoakDuration", "0s", "",
       "docs/reference/azure-managed.md §3.3 nodeSoakDurationInMinutes default", "H"},
      {"spec.machinePools[].provider.aks.drainTime", "0s", "",
       "mpsim choice: nodes without workloads drain at once", "-"},
      {"spec.machinePools[].provider.aks.allocationFailureDelay",
       "{dist: lognormal, median: 20s, p99: 95s}", "",
       "as the vmss block: docs/reference/providers.md §4.2 allocation failure surfaces", "M"},
      {"spec.machinePools[].provider.aks.allocationFailedProbability", "0", "",
       "scenario knob, default 0 (as the vmss block)", "L"},
      {"spec.machinePools[].provider.aks.armReadBurst", "250", "",
       "docs/reference/providers.md §2.3 ARM read bucket 250 tokens", "H"},
      {"spec.machinePools[].provider.aks.armReadsPerSecond", "25", "",
       "docs/reference/providers.md §2.3 ARM read refill (commonly quoted, unverified)", "L"},
      {"spec.machinePools[].provider.aks.armWriteBurst", "200", "",
       "docs/reference/providers.md §2.3 ARM write bucket 200 tokens", "H"},
      {"spec.machinePools[].provider.aks.armWritesPerSecond", "10", "",
       "docs/reference/providers.md §2.3 ARM write refill 10/s", "H"},
  };
}

}  // namespace mpsim::aks
