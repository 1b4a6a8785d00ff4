// Defaults of the `vmss` provider block, with their sources (docs/defaults.md
// shows the same rows). Kept apart so each cloud model grows its own table.
#include "sim/scenario_defaults.h"

namespace mpsim::scenario {

std::vector<DefaultEntry> VmssDefaults() {
  // LN(median, p95) figures of providers.md §4 are converted to p99 as in
  // scenario_defaults.cc.
  return {
      {"spec.machinePools[].provider.vmss.zones", "[\"1\"]", "", "mpsim choice: one zone", "-"},
      {"spec.machinePools[].provider.vmss.capacity", "{}", "", "unlimited in every zone", "-"},
      {"spec.machinePools[].provider.vmss.launchDelay", "{dist: lognormal, median: 60s, p99: 284s}",
       "", "providers.md §4.2 VM Creating -> Succeeded LN(60s, p95 180s)", "L"},
      {"spec.machinePools[].provider.vmss.deleteDelay", "{dist: lognormal, median: 60s, p99: 284s}",
       "", "providers.md §4.2 VMSS VM delete LN(60s, p95 180s)", "L"},
  };
}

}  // namespace mpsim::scenario
