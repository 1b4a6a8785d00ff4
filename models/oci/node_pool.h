// A simulated OKE node pool (Container Engine API, docs/reference/oci-scaleway.md
// §2.2, §2.4): created at a size and version, then each UpdateNodePool sets a
// new size and version. A new version reaches the nodes added later; with
// node cycling enabled OKE also replaces every existing node, keeping at
// most size + maximumSurge nodes and at least size - maximumUnavailable
// ACTIVE ones, each cycled node drained for at most the eviction grace. The
// pool is CREATING after its create and UPDATING after an update until
// every node it keeps is ACTIVE (and, cycling, on the new version), then
// ACTIVE.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "api/status.h"
#include "models/oci/fleet.h"

namespace mpsim::oci {

// nodePoolCyclingDetails and the eviction settings as OKE applies them.
struct NodeCycling {
  bool enabled = false;
  int32_t maximum_surge = 1;
  int32_t maximum_unavailable = 0;
  Duration eviction_grace = 60 * kMinute;
  DistSpec drain_delay;  // how long evicting a node's pods takes, before the cap
};

enum class NodePoolState { kAbsent, kCreating, kActive, kUpdating, kDeleting, kDeleted };
// The SDK's enum value, e.g. "ACTIVE"; "" for kAbsent.
const char* NodePoolStateName(NodePoolState s);

inline constexpr StateWords kNodeWords = {"Instance", "CREATING", "ACTIVE", "DELETING", "DELETED"};

// One cycling step: outdated nodes to drain and new nodes to launch.
struct CycleState {
  int32_t size = 0;              // the pool's size
  int32_t live = 0;              // nodes not deleting (draining ones included)
  int32_t fresh = 0;             // of those, on the new version
  int32_t available = 0;         // ACTIVE, not draining
  int32_t stale_not_active = 0;  // outdated, not ACTIVE, not draining
  int32_t stale_active = 0;      // outdated, ACTIVE, not draining
};
struct CycleStep {
  int32_t launch = 0;
  int32_t drain_not_active = 0;
  int32_t drain_active = 0;
};
// Launches while live < size + surge and fresh < size; an outdated node
// that serves nothing goes at once, an ACTIVE one only while availability
// stays at or above size - maximumUnavailable.
CycleStep NextCycleStep(const CycleState& s, const NodeCycling& c);

class NodePool {
 public:
  NodePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
           FleetOptions opts, NodeCycling cycling, uint64_t seed);
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  NodePoolState state() const { return state_; }
  const std::string& ocid() const { return ocid_; }
  int32_t size() const { return size_; }
  const std::string& version() const { return version_; }

  // CreateNodePool at `size` nodes of `version`.
  Status Create(int32_t size, const std::string& version);
  // UpdateNodePool with a new size and Kubernetes version.
  Status Update(int32_t size, const std::string& version);
  // DeleteNodePool: every node is deleted, then the pool is DELETED.
  Status Delete();
  // The pool's nodes not yet DELETED, oldest first.
  Fleet& nodes() { return fleet_; }

 private:
  void Resize();
  void Cycle();
  void Drain(uint64_t seq);
  void Settle();
  bool Outdated(const Fleet::Member& m) const;
  void SetState(NodePoolState s);

  EventLoop* loop_;
  Recorder* rec_;
  std::string pool_;
  NodeCycling cycling_;
  Rng drain_rng_;
  Fleet fleet_;
  NodePoolState state_ = NodePoolState::kAbsent;
  std::string ocid_;
  int32_t size_ = 0;
  std::string version_;
  std::set<uint64_t> draining_;
  bool settling_ = false;  // Settle's own launches and deletions call it back
};

}  // namespace mpsim::oci
