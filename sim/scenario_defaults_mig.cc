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

      {"spec.machinePools[].provider.mig.reactionDelay", "{dist: lognormal, median: 2s, p99: 19s}",
       "", "providers.md §4.3 MIG resize -> instance CREATING LN(2s, p95 10s)", "L"},
      {"spec.machinePools[].provider.mig.stockoutRetry",
       "{dist: lognormal, median: 60s, p99: 585s}", "",
       "providers.md §4.3 stockout retry interval LN(60s, p95 300s), unbounded retries", "L"},
      {"spec.machinePools[].provider.mig.stockoutProbability", "0", "",
       "providers.md §4.3 P(stockout per create attempt): scenario knob, default 0", "L"},
      {"spec.machinePools[].provider.mig.updatePolicy", "OPPORTUNISTIC", "",
       "providers.md §4.3 MIG default when CAPG sets none (unverified)", "L"},
      {"spec.machinePools[].provider.mig.apiRequestsPerMinute", "1500", "",
       "providers.md §4.3 per-minute Compute API quota (older default table)", "M"},
      {"spec.machinePools[].provider.mig.project", "mpsim-project", "", "mpsim choice", "-"},
      {"spec.machinePools[].provider.mig.malformedUrlProbability", "0", "",
       "fault off unless asked; no upstream issue reports it (providers.md §3.5)", "-"},
  };
}

}  // namespace mpsim::scenario
