// Defaults of the `rosa` provider block, with their sources (docs/defaults.md
// shows the same rows). ROSA publishes no NodePool operation durations
// (docs/reference/aws-managed.md §3.10): those defaults are mpsim's, marked L.
#include "models/rosa/rosa_schema.h"

namespace mpsim::rosa {

std::vector<scenario::DefaultEntry> Defaults() {
  return {
      {"spec.machinePools[].provider.rosa.zones", "[us-east-1a]", "",
       "mpsim choice: a NodePool has one subnet, so one zone", "-"},
      {"spec.machinePools[].provider.rosa.capacity", "{}", "", "unlimited", "-"},
      {"spec.machinePools[].provider.rosa.launchDelay", "{dist: lognormal, median: 10s, p99: 21s}",
       "", "as asg: docs/reference/providers.md §1.4, §4.1 EC2 pending -> running", "M"},
      {"spec.machinePools[].provider.rosa.deleteDelay", "{dist: lognormal, median: 30s, p99: 142s}",
       "", "as asg: docs/reference/providers.md §4.1 shutting-down -> terminated", "L"},
      {"spec.machinePools[].provider.rosa.reactionDelay",
       "{dist: lognormal, median: 30s, p99: 120s}", "",
       "not found (docs/reference/aws-managed.md §3.10): mpsim guess", "L"},
      {"spec.machinePools[].provider.rosa.launchRetry", "{dist: lognormal, median: 60s, p99: 585s}",
       "", "as asg: docs/reference/providers.md §4.1 retry of a failed launch", "L"},
      {"spec.machinePools[].provider.rosa.upgradeStartDelay",
       "{dist: lognormal, median: 30s, p99: 120s}", "",
       "not found (docs/reference/aws-managed.md §3.7, §3.10): mpsim guess", "L"},
      {"spec.machinePools[].provider.rosa.maxSurge", "1", "",
       "docs/reference/aws-managed.md §3.6 rosamachinepool_defaults.go:31-39", "H"},
      {"spec.machinePools[].provider.rosa.maxUnavailable", "0", "",
       "docs/reference/aws-managed.md §3.6 rosamachinepool_defaults.go:31-39", "H"},
      {"spec.machinePools[].provider.rosa.iceProbability", "0", "",
       "as asg: docs/reference/providers.md §4.1 P(ICE per launch attempt): scenario knob", "L"},
      {"spec.machinePools[].provider.rosa.apiThrottling.enabled", "false",
       "the APIs always throttle",
       "off, an mpsim choice as for asg (docs/reference/aws-managed.md §3.11)", "-"},
      {"spec.machinePools[].provider.rosa.apiThrottling.describeBurst", "100", "",
       "docs/reference/providers.md §4.1 EC2 non-mutating request bucket, 100 tokens "
       "(ec2-api-throttling.html)",
       "H"},
      {"spec.machinePools[].provider.rosa.apiThrottling.describeRefill", "20", "",
       "docs/reference/providers.md §4.1 EC2 non-mutating refill, 20 tokens/s", "H"},
      {"spec.machinePools[].provider.rosa.apiThrottling.ocmBurst", "100", "",
       "OCM publishes no request rate (docs/reference/aws-managed.md §3.11): mpsim guess", "L"},
      {"spec.machinePools[].provider.rosa.apiThrottling.ocmRefill", "10", "",
       "OCM publishes no request rate (docs/reference/aws-managed.md §3.11): mpsim guess", "L"},
  };
}

}  // namespace mpsim::rosa
