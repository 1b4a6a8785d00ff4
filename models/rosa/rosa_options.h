// What one pool's `provider.rosa` block says, in the model's own types.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/rosa/rosa.pb.h"
#include "sim/distribution.h"

namespace mpsim::rosa {

// What `apiThrottling` sets: EC2's non-mutating bucket and OCM's.
struct ThrottleLimits {
  bool enabled = false;
  int32_t describe_burst = 100;
  int32_t describe_refill = 20;
  int32_t ocm_burst = 100;
  int32_t ocm_refill = 10;
};

struct RosaOptions {
  std::string zone;                         // the NodePool's subnet's zone
  std::map<std::string, int32_t> capacity;  // zone -> instances available; absent: unlimited
  DistSpec launch_delay;                    // EC2 pending -> running, OS booting
  DistSpec delete_delay;                    // shutting-down -> terminated
  DistSpec reaction_delay;                  // NodePool change -> launches or terminations
  DistSpec launch_retry;                    // failed launch -> next attempt
  DistSpec upgrade_start_delay;             // policy nextRun -> replacement starts
  int32_t max_surge = 1;                    // rollingUpdate (rosamachinepool_defaults.go)
  int32_t max_unavailable = 0;
  double ice_probability = 0;     // per launch attempt
  ThrottleLimits api_throttling;  // the account's buckets (first pool's)
};

RosaOptions ToRosaOptions(const proto::RosaProvider& p);

}  // namespace mpsim::rosa
