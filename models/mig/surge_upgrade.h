// The arithmetic of a GKE surge upgrade of one zone's instance group
// (docs/reference/providers.md §3.2): which outdated nodes go and how far the group grows.
#pragma once

#include <cstdint>

namespace mpsim::mig {

// NodePool.upgradeSettings, surge strategy. CAPG sets none, so GKE's defaults
// apply: maxSurge 1, maxUnavailable 0 (docs/reference/providers.md §3.2, §4.3).
struct UpgradeSettings {
  int32_t max_surge = 1;
  int32_t max_unavailable = 0;
};

// One zone's group as the upgrade sees it.
struct SurgeState {
  int32_t size = 0;         // the node count the pool keeps in this zone
  int32_t target = 0;       // the group's target size now
  int32_t old_nodes = 0;    // outdated instances not being deleted
  int32_t old_running = 0;  // of those, RUNNING
  int32_t running = 0;      // RUNNING instances not being deleted, any version
};

// What to do now: delete `remove_old` outdated instances (deleteInstances,
// which lowers the target by as many), then resize the group to `target`.
struct SurgeStep {
  int32_t remove_old = 0;
  int32_t target = 0;
};

// Keeps at most size + maxSurge instances and at least size - maxUnavailable
// RUNNING ones, so maxSurge + maxUnavailable nodes are upgraded at once.
// REQUIRES: u.max_surge + u.max_unavailable > 0.
SurgeStep NextSurgeStep(const SurgeState& s, const UpgradeSettings& u);

// Every node runs the new version and the group is back to its size.
inline bool SurgeDone(const SurgeState& s) {
  return s.old_nodes == 0 && s.target == s.size && s.running == s.size;
}

}  // namespace mpsim::mig
