// A simulated Scaleway Kapsule pool (docs/reference/oci-scaleway.md §3): the
// Kapsule API's pool (CreatePool, UpdatePool, UpgradePool, DeletePool,
// ListNodes) over nodes that are Scaleway instances in the pool's zone.
// Kapsule keeps the pool at its size, replaces the nodes of an upgrade
// within the pool's upgrade policy, and reports the pool `ready` only when
// that work is done; CAPS waits for that (§3.1).
//
// What no source gives, and the model assumes (docs/defaults.md, Kapsule):
// the pool is `scaling` from a create or a size change until every node is
// `ready` and none is being deleted, `upgrading` from an upgrade until no
// node has the old version; a node has no providerID until its instance runs;
// a node beyond the zone's capacity is `creation_error` and tried again after
// `creationRetry`; a scale-down removes nodes not ready first, then the
// newest; an upgrade removes the oldest first.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/status.h"
#include "models/kapsule/kapsule_options.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"
#include "util/shared_string.h"

namespace mpsim::kapsule {

// The SDK's k8s.PoolStatus values the model reaches ("" while there is no pool).
enum class PoolStatus { kAbsent, kReady, kScaling, kUpgrading, kDeleting };
const char* PoolStatusName(PoolStatus s);

// The SDK's k8s.NodeStatus values the model reaches.
enum class NodeStatus { kCreating, kCreationError, kReady, kDeleting };
const char* NodeStatusName(NodeStatus s);

struct KapsuleNode {
  std::string name;  // scw-<pool>-<uuid without dashes>
  std::string uuid;  // the instance's ID
  std::string version;
  NodeStatus status = NodeStatus::kCreating;
  // Node.ProviderID: "scaleway://instance/<zone>/<uuid>" once the instance
  // runs, empty before.
  SharedString provider_id;
  bool holds_capacity = false;  // an instance exists or is being made
};

class KapsulePool {
 public:
  KapsulePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
              KapsuleOptions opts, uint64_t seed);
  KapsulePool(const KapsulePool&) = delete;
  KapsulePool& operator=(const KapsulePool&) = delete;

  PoolStatus status() const { return status_; }
  int32_t size() const { return size_; }
  const std::string& version() const { return version_; }  // without `v`
  const UpgradePolicy& upgrade_policy() const { return policy_; }
  const std::string& zone() const { return opts_.zone; }

  // CreatePool: the pool exists at once, `scaling`, and makes `size` nodes.
  // AlreadyExists if there is one.
  Status Create(int32_t size, const std::string& version, const UpgradePolicy& policy);
  // UpdatePool with a size and an upgrade policy; a new size makes the pool
  // `scaling`. NotFound without a pool.
  Status Update(int32_t size, const UpgradePolicy& policy);
  // UpgradePool: the pool is `upgrading` and replaces every node of another
  // version, within the upgrade policy. NotFound without a pool.
  Status Upgrade(const std::string& version);
  // DeletePool: `deleting`, every node deleted; the pool is gone with the
  // last one. NotFound without a pool.
  Status Delete();
  // ListNodes: every node of the pool in any status, oldest first.
  std::vector<const KapsuleNode*> ListNodes() const;

 private:
  // After every change: scale or step the upgrade, then the pool's status.
  void Settle();
  void Scale();
  void StepUpgrade();
  bool Converged() const;
  void AddNode();
  void TryCreate(uint64_t seq);
  void NodeRunning(uint64_t seq);
  void DeleteNode(uint64_t seq);
  void NodeGone(uint64_t seq);
  void SetNodeStatus(KapsuleNode* node, NodeStatus s);
  void Count(const KapsuleNode& node, int32_t delta);
  void SetStatus(PoolStatus s);
  // Up to `n` live nodes for a scale-down: not ready first, then the newest.
  std::vector<uint64_t> ScaleDownVictims(int32_t n) const;

  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  KapsuleOptions opts_;
  Rng id_rng_, launch_rng_, delete_rng_, retry_rng_;
  PoolStatus status_ = PoolStatus::kAbsent;
  int32_t size_ = 0;
  std::string version_;
  UpgradePolicy policy_;
  uint64_t next_ = 0;
  std::map<uint64_t, KapsuleNode> nodes_;  // by creation number: oldest first
  // Kept as nodes change, so a pass that changes nothing does not scan.
  int32_t live_ = 0;   // not being deleted
  int32_t ready_ = 0;  // ready (so live)
  int32_t old_ = 0;    // live, of another version than the pool's
  int32_t held_ = 0;   // holding the zone's capacity
};

}  // namespace mpsim::kapsule
