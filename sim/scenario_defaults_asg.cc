// Defaults of the `asg` provider block, with their sources (docs/defaults.md
// shows the same rows). Kept apart so each cloud model grows its own table.
#include "sim/scenario_defaults.h"

namespace mpsim::scenario {

std::vector<DefaultEntry> AsgDefaults() {
  // LN(median, p95) figures of providers.md §4 are converted to p99 as in
  // scenario_defaults.cc.
  return {
      {"spec.machinePools[].provider.asg.zones", "[us-east-1a]", "",
       "mpsim choice: one zone (CAPA takes zones from the subnets)", "-"},
      {"spec.machinePools[].provider.asg.capacity", "{}", "", "unlimited in every zone", "-"},
      {"spec.machinePools[].provider.asg.launchDelay", "{dist: lognormal, median: 15s, p99: 50s}",
       "",
       "providers.md §4.1 EC2 pending -> running LN(10s, p95 20s) plus health checks "
       "LN(5s, p95 15s), taken together as LN(15s, p95 35s)",
       "M"},
      {"spec.machinePools[].provider.asg.deleteDelay", "{dist: lognormal, median: 30s, p99: 142s}",
       "", "providers.md §4.1 shutting-down -> terminated LN(30s, p95 90s)", "L"},
  };
}

}  // namespace mpsim::scenario
