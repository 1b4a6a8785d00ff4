// The ASG's Default termination policy on scale-in (docs/reference/providers.md §1.1,
// as-instance-termination.md): which instances go first.
#pragma once

#include <string>
#include <vector>

#include "api/time.h"
#include "sim/random.h"

namespace mpsim::asg {

// What the policy looks at of one in-service instance.
struct Candidate {
  std::string id;
  std::string zone;
  int launch_template_version = 0;
  Time launched_at = 0;
};

// The `count` instances to terminate, in order: always from the zone with the
// most instances (AZ balance), then the oldest launch-template version, then
// the one closest to its next billing hour, then at random (`rng`).
std::vector<std::string> ChooseVictims(const std::vector<Candidate>& candidates, int count,
                                       Time now, Rng* rng);

}  // namespace mpsim::asg
