// Defaults of the `vmss` provider block, with their sources (docs/defaults.md
// shows the same rows). Kept apart so each cloud model grows its own table.
#include "models/vmss/vmss_schema.h"

namespace mpsim::vmss {

std::vector<scenario::DefaultEntry> Defaults() {
  // LN(median, p95) figures of docs/reference/providers.md §4 are converted to p99 as in
  // scenario_defaults.cc.
  return {
      {"spec.machinePools[].provider.vmss.zones", "[\"1\"]", "", "mpsim choice: one zone", "-"},
      {"spec.machinePools[].provider.vmss.capacity", "{}", "", "unlimited in every zone", "-"},
      {"spec.machinePools[].provider.vmss.launchDelay", "{dist: lognormal, median: 60s, p99: 284s}",
       "", "docs/reference/providers.md §4.2 VM Creating -> Succeeded LN(60s, p95 180s)", "L"},
      {"spec.machinePools[].provider.vmss.deleteDelay", "{dist: lognormal, median: 60s, p99: 284s}",
       "", "docs/reference/providers.md §4.2 VMSS VM delete LN(60s, p95 180s)", "L"},
      {"spec.machinePools[].provider.vmss.operationDelay",
       "{dist: lognormal, median: 1s, p99: 4730ms}", "",
       "docs/reference/providers.md §4.2 VMSS PUT accepted -> operation visible LN(1s, p95 3s)",
       "L"},
      {"spec.machinePools[].provider.vmss.allocationFailureDelay",
       "{dist: lognormal, median: 20s, p99: 95s}", "",
       "docs/reference/providers.md §4.2 allocation failure surfaces LN(20s, p95 60s) (autoscaler "
       "PR #5548)",
       "M"},
      {"spec.machinePools[].provider.vmss.allocationFailedProbability", "0", "",
       "docs/reference/providers.md §4.2 P(AllocationFailed per VM): scenario knob, default 0",
       "L"},
      {"spec.machinePools[].provider.vmss.failedBehavior", "HEAD", "",
       "docs/reference/providers.md §2.6.1 CAPZ HEAD sets ready=false on Failed (PR #6488); "
       "v1.26.0 did not",
       "H"},
      {"spec.machinePools[].provider.vmss.maxSurge", "\"1\"", "",
       "docs/reference/providers.md §2.2 AzureMachinePool strategy.rollingUpdate.maxSurge CRD "
       "default",
       "H"},
      {"spec.machinePools[].provider.vmss.maxUnavailable", "\"0\"", "",
       "docs/reference/providers.md §2.2 AzureMachinePool strategy.rollingUpdate.maxUnavailable "
       "CRD default",
       "H"},
      {"spec.machinePools[].provider.vmss.deletePolicy", "Oldest", "",
       "docs/reference/providers.md §2.2 AzureMachinePool strategy.rollingUpdate.deletePolicy CRD "
       "default",
       "H"},
      {"spec.machinePools[].provider.vmss.armReadBurst", "250", "",
       "docs/reference/providers.md §2.3 ARM read bucket 250 tokens", "H"},
      {"spec.machinePools[].provider.vmss.armReadsPerSecond", "25", "",
       "docs/reference/providers.md §2.3 ARM read refill (commonly quoted, unverified)", "L"},
      {"spec.machinePools[].provider.vmss.armWriteBurst", "200", "",
       "docs/reference/providers.md §2.3 ARM write bucket 200 tokens", "H"},
      {"spec.machinePools[].provider.vmss.armWritesPerSecond", "10", "",
       "docs/reference/providers.md §2.3 ARM write refill 10/s", "H"},
      {"spec.machinePools[].provider.vmss.drainTime", "0s", "",
       "mpsim choice: nodes without workloads drain at once", "-"},
      {"spec.machinePools[].provider.vmss.deleteSelection", "head", "",
       "docs/reference/providers.md §2.6.3 CAPZ HEAD SelectMachinesToDelete (commits 0ef04d737, "
       "5db8772d2); "
       "v1.26.0 counts ready machines only",
       "H"},
      {"spec.machinePools[].provider.vmss.resourceGroup", "mpsim-rg", "",
       "mpsim choice: any name; CAPZ and cloud-provider-azure lowercase it in providerIDs "
       "(docs/reference/providers.md §2.5)",
       "-"},
      {"spec.machinePools[].provider.vmss.nodeResourceGroupCase", "lowercase", "",
       "docs/reference/providers.md §2.5 cloud-provider-azure lowercases the resource-group "
       "segment "
       "(kubernetes PR #74882)",
       "H"},
      {"spec.machinePools[].provider.vmss.orchestrationMode", "Uniform", "",
       "CAPZ AzureMachinePool spec.orchestrationMode CRD default (exp/api/v1beta1/"
       "azuremachinepool_types.go; docs/reference/providers.md §2.5)",
       "H"},
      {"spec.machinePools[].provider.vmss.terminateNotificationTimeout", "0s", "",
       "docs/reference/providers.md §2.4, §4.2 terminate notification is opt-in (CAPZ field "
       "unset); 0s is off",
       "H"},
      {"spec.machinePools[].provider.vmss.machinePoolMachines", "false", "",
       "mpsim choice: CAPZ always makes AzureMachinePoolMachines (docs/reference/providers.md "
       "§2.6.2); "
       "off, the AzureMachinePool controller folds them in, which keeps a 10,000-VM run "
       "inside the performance budget (docs/architecture.md)",
       "-"},
  };
}

}  // namespace mpsim::vmss
