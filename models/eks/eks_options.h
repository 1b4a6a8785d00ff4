// What one pool's `provider.eks` block says, in the model's own types: the
// node group's zones, capacity, operation delays, update and scaling
// config, quota and CAPA's waiter budget.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/eks/eks.pb.h"
#include "sim/distribution.h"

namespace mpsim::eks {

// The InfraMachinePool spec fields a `setInfraPoolSpec` edit may set
// (AWSManagedMachinePool spec.scaling); unset, the block's minSize and maxSize.
inline constexpr const char* kScalingMinSizeField = "scaling.minSize";
inline constexpr const char* kScalingMaxSizeField = "scaling.maxSize";

// What `apiThrottling` sets: the account's buckets per service. EKS and Auto
// Scaling publish no request rates; they are given EC2's (docs/defaults.md).
struct ThrottleLimits {
  bool enabled = false;
  int32_t describe_burst = 100;
  int32_t describe_refill = 20;
  int32_t mutating_burst = 200;
  int32_t mutating_refill = 5;
};

struct EksOptions {
  std::vector<std::string> zones;
  std::map<std::string, int32_t> capacity;  // zone -> instances available; absent: unlimited
  DistSpec launch_delay;                    // instance Pending -> running, OS booting
  DistSpec delete_delay;                    // Terminating -> gone
  DistSpec create_delay;                    // CreateNodegroup -> launches start
  DistSpec settle_delay;                    // last change done -> ACTIVE
  DistSpec update_setup_delay;              // UpdateNodegroupVersion -> scale-up phase
  DistSpec reaction_delay;                  // desired change -> launches or terminations
  DistSpec launch_retry;                    // failed launch -> next attempt
  DistSpec delete_group_delay;              // DeleteNodegroup -> terminations start
  // spec.updateConfig: a count, or a percentage when max_unavailable is 0.
  int32_t max_unavailable = 1;
  int32_t max_unavailable_percentage = 0;
  std::optional<int32_t> min_size, max_size;  // spec.scaling
  int32_t quota = 450;                        // nodes per managed node group
  bool upgraded_nodes_join = true;
  Duration max_wait = 30 * kMinute;  // --max-wait-managed-resources
  double ice_probability = 0;        // per launch attempt, per zone
  ThrottleLimits api_throttling;     // the account's buckets (first pool's)
};

EksOptions ToEksOptions(const proto::EksProvider& p);

}  // namespace mpsim::eks
