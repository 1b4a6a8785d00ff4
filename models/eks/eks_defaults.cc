// Defaults of the `eks` provider block, with their sources (docs/defaults.md
// shows the same rows). EKS publishes no operation durations
// (docs/reference/aws-managed.md §2.6): those defaults are mpsim's, marked L.
#include "models/eks/eks_schema.h"

namespace mpsim::eks {

std::vector<scenario::DefaultEntry> Defaults() {
  return {
      {"spec.machinePools[].provider.eks.zones", "[us-east-1a]", "",
       "mpsim choice: one zone (CAPA takes the node group's subnets from the cluster)", "-"},
      {"spec.machinePools[].provider.eks.capacity", "{}", "", "unlimited in every zone", "-"},
      {"spec.machinePools[].provider.eks.launchDelay", "{dist: lognormal, median: 10s, p99: 21s}",
       "", "as asg: docs/reference/providers.md §1.4, §4.1 EC2 pending -> running", "M"},
      {"spec.machinePools[].provider.eks.deleteDelay", "{dist: lognormal, median: 30s, p99: 142s}",
       "", "as asg: docs/reference/providers.md §4.1 shutting-down -> terminated", "L"},
      {"spec.machinePools[].provider.eks.createDelay", "{dist: lognormal, median: 60s, p99: 180s}",
       "", "not published (docs/reference/aws-managed.md §2.6): mpsim guess", "L"},
      {"spec.machinePools[].provider.eks.settleDelay", "{dist: lognormal, median: 30s, p99: 120s}",
       "", "not published (docs/reference/aws-managed.md §2.6): mpsim guess", "L"},
      {"spec.machinePools[].provider.eks.updateSetupDelay",
       "{dist: lognormal, median: 60s, p99: 180s}", "",
       "not published (docs/reference/aws-managed.md §2.2 setup phase, §2.6): mpsim guess", "L"},
      {"spec.machinePools[].provider.eks.reactionDelay", "{dist: lognormal, median: 4s, p99: 11s}",
       "", "as asg: docs/reference/providers.md §1.4, §4.1 ASG reaction", "M"},
      {"spec.machinePools[].provider.eks.launchRetry", "{dist: lognormal, median: 60s, p99: 585s}",
       "", "as asg: docs/reference/providers.md §4.1 retry of a failed launch", "L"},
      {"spec.machinePools[].provider.eks.deleteGroupDelay",
       "{dist: lognormal, median: 30s, p99: 120s}", "",
       "not published (docs/reference/aws-managed.md §2.6): mpsim guess", "L"},
      {"spec.machinePools[].provider.eks.nodesPerNodegroupQuota", "450", "",
       "docs/reference/aws-managed.md §2.4 EKS service quota, nodes per managed node group "
       "(adjustable)",
       "H"},
      {"spec.machinePools[].provider.eks.upgradedNodesJoin", "true", "",
       "no fault unless asked (CAPA#5672, docs/reference/aws-managed.md §4.1)", "-"},
      {"spec.machinePools[].provider.eks.maxWaitManagedResources", "30m", "",
       "docs/reference/aws-managed.md §1.4 CAPA --max-wait-managed-resources (main.go:640-644)",
       "H"},
      {"spec.machinePools[].provider.eks.iceProbability", "0", "",
       "as asg: docs/reference/providers.md §4.1 P(ICE per launch attempt, per AZ): scenario knob",
       "L"},
      {"spec.machinePools[].provider.eks.apiThrottling.enabled", "false", "AWS always throttles",
       "off, an mpsim choice as for asg: EKS and Auto Scaling publish no request rates "
       "(docs/reference/aws-managed.md §2.7)",
       "-"},
      {"spec.machinePools[].provider.eks.apiThrottling.describeBurst", "100", "",
       "EC2's non-mutating bucket (docs/reference/providers.md §4.1); EKS and Auto Scaling "
       "publish none (docs/reference/aws-managed.md §2.7): assumed the same",
       "L"},
      {"spec.machinePools[].provider.eks.apiThrottling.describeRefill", "20", "",
       "EC2's non-mutating refill, tokens/s (docs/reference/providers.md §4.1): assumed the same",
       "L"},
      {"spec.machinePools[].provider.eks.apiThrottling.mutatingBurst", "200", "",
       "EC2's mutating bucket (docs/reference/providers.md §4.1): assumed the same", "L"},
      {"spec.machinePools[].provider.eks.apiThrottling.mutatingRefill", "5", "",
       "EC2's mutating refill, tokens/s (docs/reference/providers.md §4.1): assumed the same", "L"},
  };
}

}  // namespace mpsim::eks
