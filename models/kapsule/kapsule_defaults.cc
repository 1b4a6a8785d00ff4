// Defaults of the `kapsule` provider block, with their sources (docs/defaults.md
// shows the same rows). No Kapsule duration is published
// (docs/reference/oci-scaleway.md §3.5): each is an assumption, marked L, with
// a key.
#include "models/kapsule/kapsule_schema.h"

namespace mpsim::kapsule {

std::vector<scenario::DefaultEntry> Defaults() {
  return {
      {"spec.machinePools[].provider.kapsule.zones", "[fr-par-1]", "",
       "mpsim choice: one zone, Paris 1 (a Kapsule pool has exactly one)", "-"},
      {"spec.machinePools[].provider.kapsule.capacity", "{}", "", "unlimited in the zone", "-"},
      {"spec.machinePools[].provider.kapsule.launchDelay",
       "{dist: lognormal, median: 60s, p99: 180s}", "",
       "assumption: docs/reference/oci-scaleway.md §3.5 finds no pool create or scale duration "
       "(only the e2e suite's 30 min upper bound)",
       "L"},
      {"spec.machinePools[].provider.kapsule.deleteDelay",
       "{dist: lognormal, median: 30s, p99: 90s}", "",
       "assumption: no node deletion duration is published (docs/reference/oci-scaleway.md §3.5)",
       "L"},
      {"spec.machinePools[].provider.kapsule.creationRetry", "{dist: constant, value: 60s}", "",
       "assumption: how Kapsule retries a node it could not create is not published", "L"},
      {"spec.machinePools[].provider.kapsule.upgradePolicy.maxSurge", "0", "",
       "docs/reference/oci-scaleway.md §3.3: CAPS's DesiredPoolUpgradePolicy default "
       "(scope/managedmachinepool.go:179-184), sent on create and enforced on update",
       "H"},
      {"spec.machinePools[].provider.kapsule.upgradePolicy.maxUnavailable", "1", "",
       "docs/reference/oci-scaleway.md §3.3: CAPS's default (scope/managedmachinepool.go:179-184)",
       "H"},
  };
}

}  // namespace mpsim::kapsule
