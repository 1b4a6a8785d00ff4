// Defaults of the `asg` provider block, with their sources (docs/defaults.md
// shows the same rows). Kept apart so each cloud model grows its own table.
#include "models/asg/asg_schema.h"

namespace mpsim::asg {

std::vector<scenario::DefaultEntry> Defaults() {
  // LN(median, p95) figures of docs/reference/providers.md §4 are converted to p99 as in
  // scenario_defaults.cc.
  return {
      {"spec.machinePools[].provider.asg.zones", "[us-east-1a]", "",
       "mpsim choice: one zone (CAPA takes zones from the subnets)", "-"},
      {"spec.machinePools[].provider.asg.capacity", "{}", "", "unlimited in every zone", "-"},
      {"spec.machinePools[].provider.asg.launchDelay", "{dist: lognormal, median: 10s, p99: 21s}",
       "",
       "docs/reference/providers.md §1.4, §4.1 EC2 pending -> running LN(10s, p95 17s): 4.9 s "
       "(daemonology 2021) to 16.5 s (brevdev ec2-coldboot-research); the OS boots from "
       "running, and CAPA's group has no grace period, so InService adds nothing",
       "M"},
      {"spec.machinePools[].provider.asg.deleteDelay", "{dist: lognormal, median: 30s, p99: 142s}",
       "", "docs/reference/providers.md §4.1 shutting-down -> terminated LN(30s, p95 90s)", "L"},
      {"spec.machinePools[].provider.asg.reactionDelay", "{dist: lognormal, median: 4s, p99: 11s}",
       "",
       "docs/reference/providers.md §1.4, §4.1 ASG reaction: desired change -> instances Pending "
       "LN(4s, p95 8s), from the scaling activities AWS documents (request to activity start "
       "3.5-6.1 s in four examples)",
       "M"},
      {"spec.machinePools[].provider.asg.launchRetry", "{dist: lognormal, median: 60s, p99: 585s}",
       "", "docs/reference/providers.md §4.1 retry interval of a failed launch LN(60s, p95 300s)",
       "L"},
      {"spec.machinePools[].provider.asg.iceProbability", "0", "",
       "docs/reference/providers.md §4.1 P(ICE per launch attempt, per AZ): scenario knob, default "
       "0",
       "L"},
      {"spec.machinePools[].provider.asg.missingAZ", "0", "",
       "no fault unless asked (CAPA #3742, docs/reference/providers.md §1.5)", "-"},
      {"spec.machinePools[].provider.asg.reorderProbability", "0", "",
       "no fault unless asked (docs/reference/providers.md §1.5: AWS order stability unverified)",
       "-"},
      {"spec.machinePools[].provider.asg.minHealthyPercentage", "90", "",
       "docs/reference/providers.md §1.2 StartInstanceRefresh API default; CAPA sends none", "H"},
      {"spec.machinePools[].provider.asg.instanceWarmup", "300s", "",
       "docs/reference/providers.md §1.2 CAPA creates the ASG with DefaultInstanceWarmup 300 s",
       "H"},
      {"spec.machinePools[].provider.asg.apiThrottling.enabled", "false", "AWS always throttles",
       "off: docs/reference/providers.md §4.1 gives EC2's buckets but none for Auto Scaling, and "
       "the simulated "
       "account has no other callers",
       "-"},
      {"spec.machinePools[].provider.asg.apiThrottling.describeBurst", "100", "",
       "docs/reference/providers.md §4.1 EC2 non-mutating request bucket "
       "(ec2-api-throttling.html); Auto "
       "Scaling publishes none and is given the same",
       "H"},
      {"spec.machinePools[].provider.asg.apiThrottling.describeRefill", "20", "",
       "docs/reference/providers.md §4.1 EC2 non-mutating refill 20/s; the same for Auto Scaling",
       "H"},
      {"spec.machinePools[].provider.asg.apiThrottling.mutatingBurst", "200", "",
       "docs/reference/providers.md §4.1 EC2 mutating request bucket; the same for Auto Scaling",
       "H"},
      {"spec.machinePools[].provider.asg.apiThrottling.mutatingRefill", "5", "",
       "docs/reference/providers.md §4.1 EC2 mutating refill 5/s; the same for Auto Scaling", "H"},
      {"spec.machinePools[].provider.asg.apiThrottling.runInstancesBurst", "1000", "",
       "docs/reference/providers.md §1.3, §4.1 RunInstances resource bucket, 1000 tokens, one per "
       "instance "
       "(ec2-api-throttling.html); that ASG launches draw it is unverified",
       "M"},
      {"spec.machinePools[].provider.asg.apiThrottling.runInstancesRefill", "2", "",
       "docs/reference/providers.md §1.3, §4.1 RunInstances resource refill, 2 tokens/s", "M"},
      {"spec.machinePools[].provider.asg.lifecycleHooks", "[]", "",
       "docs/reference/providers.md §1.6.1 CAPA puts only the hooks of spec.lifecycleHooks", "H"},
      {"spec.machinePools[].provider.asg.lifecycleHooks[].heartbeatTimeout", "1h", "",
       "docs/reference/providers.md §1.1, §4.1 HeartbeatTimeout 3600 s (AWS default and CAPA's)",
       "H"},
      {"spec.machinePools[].provider.asg.lifecycleHooks[].defaultResult", "ABANDON", "",
       "docs/reference/providers.md §1.1, §4.1 CAPA lifecyclehook.go DefaultResult", "H"},
      {"spec.machinePools[].provider.asg.spotInterruptionRate", "0", "",
       "no fault unless asked (docs/reference/providers.md §1.3 spot interruption)", "-"},
      {"spec.machinePools[].provider.asg.machinePoolMachines", "false", "",
       "docs/reference/providers.md §1.6.2 CAPA feature gate MachinePoolMachines, alpha, default "
       "off",
       "H"},
  };
}

}  // namespace mpsim::asg
