// What one pool's `provider.mig` block says, in the model's own types: the
// Managed Instance Group's zone, capacity, delays, faults, update policy and
// the project's API quota.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/distribution.h"
#include "sim/proto/mig.pb.h"

namespace mpsim::mig {

struct MigOptions {
  std::vector<std::string> zones;
  std::map<std::string, int32_t> capacity;  // zone -> VMs available; absent: unlimited
  DistSpec launch_delay;                    // VM insert -> RUNNING
  DistSpec delete_delay;                    // DELETING -> gone
  DistSpec reaction_delay;                  // resize -> CREATING
  DistSpec stockout_retry;                  // failed create -> next attempt
  double stockout_probability = 0;
  double malformed_url_probability = 0;  // a VM's self link CAPG cannot parse
  bool proactive = false;                // update policy type PROACTIVE
  int32_t api_requests_per_minute = 1500;
  std::string project = "mpsim-project";
};

MigOptions ToMigOptions(const proto::MigProvider& p);

}  // namespace mpsim::mig
