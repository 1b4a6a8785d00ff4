// What one pool's `provider.asg` block says, in the model's own types: the
// Auto Scaling Group's zones, capacity, delays, faults, hooks and preferences.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/asg/asg.pb.h"
#include "models/asg/aws_throttle.h"
#include "models/asg/lifecycle_hook.h"
#include "sim/distribution.h"

namespace mpsim::asg {

struct AsgOptions {
  std::vector<std::string> zones;
  std::map<std::string, int32_t> capacity;   // zone -> instances available; absent: unlimited
  DistSpec launch_delay;                     // Pending -> InService (EC2 running + health checks)
  DistSpec delete_delay;                     // Terminating -> Terminated
  DistSpec reaction_delay;                   // desired change -> scaling activity launches
  DistSpec launch_retry;                     // failed launch activity -> next attempt
  double ice_probability = 0;                // per launch attempt, per zone
  double missing_az = 0;                     // providerIDList entry without its zone (CAPA #3742)
  double reorder_probability = 0;            // a Describe lists instances in another order
  int32_t min_healthy_percentage = 90;       // instance refresh
  Duration instance_warmup = 300 * kSecond;  // instance refresh
  LifecycleHook launch_hook;                 // Pending:Wait
  LifecycleHook termination_hook;            // Terminating:Wait
  double spot_interruption_rate = 0;         // notices per InService instance-hour
  ThrottleLimits api_throttling;             // the account's buckets (first pool's)
  bool machine_pool_machines = false;        // CAPA feature gate MachinePoolMachines
  // EC2 instance IDs are unique in a region, so each group of a run draws
  // from its own block of IDs (the provider numbers its groups).
  uint32_t id_block = 0;
};

AsgOptions ToAsgOptions(const proto::AsgProvider& p);

}  // namespace mpsim::asg
