// What one pool's `provider.kapsule` block says, in the model's own types:
// the pool's zone and its capacity, the node delays and the upgrade policy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/kapsule/kapsule.pb.h"
#include "sim/distribution.h"

namespace mpsim::kapsule {

// The pool's upgrade policy (docs/reference/oci-scaleway.md §3.3): CAPS sends
// maxSurge 0 and maxUnavailable 1 unless the ScalewayManagedMachinePool says
// otherwise.
struct UpgradePolicy {
  int32_t max_surge = 0;
  int32_t max_unavailable = 1;
  bool operator==(const UpgradePolicy&) const = default;
};

struct KapsuleOptions {
  std::string zone = "fr-par-1";
  std::optional<int32_t> capacity;  // instances available in the zone; absent: unlimited
  DistSpec launch_delay;            // node created -> instance running, booting
  DistSpec delete_delay;            // node deleted -> instance gone
  DistSpec creation_retry;          // a node without capacity -> the next attempt
  UpgradePolicy upgrade_policy;
};

// Validation has checked the block: exactly one zone.
KapsuleOptions ToKapsuleOptions(const proto::KapsuleProvider& p);

}  // namespace mpsim::kapsule
