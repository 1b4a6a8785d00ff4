// Defaults of the `mig` provider block, with their sources (docs/defaults.md
// shows the same rows). Kept apart so each cloud model grows its own table.
#include "sim/scenario_defaults.h"

namespace mpsim::scenario {

std::vector<DefaultEntry> MigDefaults() {
  // LN(median, p95) figures of providers.md §4 are converted to p99 as in
  // scenario_defaults.cc.
  return {
      {"spec.machinePools[].provider.mig.zones", "[us-central1-a]", "", "mpsim choice: one zone",
       "-"},
      {"spec.machinePools[].provider.mig.capacity", "{}", "", "unlimited in every zone", "-"},
      {"spec.machinePools[].provider.mig.launchDelay", "{dist: lognormal, median: 25s, p99: 86s}",
       "", "providers.md §4.3 VM insert -> RUNNING LN(25s, p95 60s)", "M"},
      {"spec.machinePools[].provider.mig.deleteDelay", "{dist: lognormal, median: 40s, p99: 189s}",
       "", "providers.md §4.3 VM delete LN(40s, p95 120s)", "L"},

  };
}

}  // namespace mpsim::scenario
