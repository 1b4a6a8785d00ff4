// The nodes of a simulated Kapsule pool: each one's life (created in the
// zone's capacity, running, deleted), the scaling to the pool's size and the
// upgrade's node replacement within the upgrade policy.
#include <algorithm>

#include "models/kapsule/kapsule_pool.h"
#include "models/kapsule/provider_id.h"
#include "sim/distribution.h"

namespace mpsim::kapsule {
namespace {

// The kubelet's version: the pool's without CAPS's stripping of the `v`
// (docs/reference/oci-scaleway.md §3.3).
std::string KubeletVersion(const std::string& version) { return "v" + version; }

std::string NodeName(const std::string& pool, std::string uuid) {
  std::erase(uuid, '-');
  return "scw-" + pool + "-" + uuid;
}

}  // namespace

const char* NodeStatusName(NodeStatus s) {
  switch (s) {
    case NodeStatus::kCreating:
      return "creating";
    case NodeStatus::kCreationError:
      return "creation_error";
    case NodeStatus::kReady:
      return "ready";
    case NodeStatus::kDeleting:
      return "deleting";
  }
  return "unknown";
}

void KapsulePool::Scale() {
  for (int32_t i = live_; i < size_; ++i) AddNode();
  if (live_ > size_) {
    for (uint64_t seq : ScaleDownVictims(live_ - size_)) DeleteNode(seq);
  }
}

std::vector<uint64_t> KapsulePool::ScaleDownVictims(int32_t n) const {
  std::vector<uint64_t> out;
  for (const auto& [seq, node] : nodes_) {
    if (static_cast<int32_t>(out.size()) == n) return out;
    if (node.status == NodeStatus::kCreating || node.status == NodeStatus::kCreationError) {
      out.push_back(seq);
    }
  }
  for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
    if (static_cast<int32_t>(out.size()) == n) break;
    if (it->second.status == NodeStatus::kReady) out.push_back(it->first);
  }
  return out;
}

// At most size + maxSurge live nodes, and at least size - maxUnavailable of
// them ready: an outdated node that is not ready goes at once, a ready one
// only while the rest keep that bound; new ones take the freed places.
void KapsulePool::StepUpgrade() {
  std::vector<uint64_t> victims;
  int32_t ready = ready_;
  const int32_t floor = size_ - policy_.max_unavailable;
  for (const auto& [seq, node] : nodes_) {
    if (node.status == NodeStatus::kDeleting || node.version == version_) continue;
    if (node.status != NodeStatus::kReady) {
      victims.push_back(seq);
    } else if (ready - 1 >= floor) {
      victims.push_back(seq);
      --ready;
    }
  }
  for (uint64_t seq : victims) DeleteNode(seq);
  while (live_ < size_ + policy_.max_surge && live_ - old_ < size_) AddNode();
}

void KapsulePool::AddNode() {
  const uint64_t seq = next_++;
  KapsuleNode& node = nodes_[seq];
  node.uuid = NewUuid(&id_rng_);
  node.name = NodeName(pool_, node.uuid);
  node.version = version_;
  Count(node, +1);
  rec_->Change(loop_->Now(), "Instance", node.name, "state", "", NodeStatusName(node.status),
               pool_);
  TryCreate(seq);
}

// The zone's capacity counts every instance made or being made, deleting
// ones included until they are gone.
void KapsulePool::TryCreate(uint64_t seq) {
  auto it = nodes_.find(seq);
  if (it == nodes_.end() || it->second.status == NodeStatus::kDeleting) return;
  KapsuleNode& node = it->second;
  if (opts_.capacity && held_ >= *opts_.capacity) {
    if (node.status != NodeStatus::kCreationError) {
      rec_->Fault(loop_->Now(), pool_, node.name, "zone.outOfStock");
      SetNodeStatus(&node, NodeStatus::kCreationError);
    }
    loop_->After(Sample(opts_.creation_retry, retry_rng_), [this, seq] { TryCreate(seq); });
    return;
  }
  node.holds_capacity = true;
  ++held_;
  SetNodeStatus(&node, NodeStatus::kCreating);
  loop_->After(Sample(opts_.launch_delay, launch_rng_), [this, seq] { NodeRunning(seq); });
}

void KapsulePool::NodeRunning(uint64_t seq) {
  auto it = nodes_.find(seq);
  if (it == nodes_.end() || it->second.status != NodeStatus::kCreating) return;
  KapsuleNode& node = it->second;
  node.provider_id = SharedString::Pinned(InstanceProviderId(opts_.zone, node.uuid));
  SetNodeStatus(&node, NodeStatus::kReady);
  workload_->InstanceBooted(pool_, node.name, node.provider_id, KubeletVersion(node.version));
  Settle();
}

void KapsulePool::DeleteNode(uint64_t seq) {
  KapsuleNode& node = nodes_.at(seq);
  SetNodeStatus(&node, NodeStatus::kDeleting);
  loop_->After(Sample(opts_.delete_delay, delete_rng_), [this, seq] { NodeGone(seq); });
}

void KapsulePool::NodeGone(uint64_t seq) {
  auto it = nodes_.find(seq);
  if (it == nodes_.end()) return;
  const std::string name = it->second.name;
  if (it->second.holds_capacity) --held_;
  nodes_.erase(it);
  rec_->Change(loop_->Now(), "Instance", name, "state", "deleting", "deleted", pool_);
  workload_->InstanceGone(name);
  Settle();
}

void KapsulePool::SetNodeStatus(KapsuleNode* node, NodeStatus s) {
  if (node->status == s) return;
  rec_->Change(loop_->Now(), "Instance", node->name, "state", NodeStatusName(node->status),
               NodeStatusName(s), pool_);
  Count(*node, -1);
  node->status = s;
  Count(*node, +1);
}

// Deleting nodes count nowhere.
void KapsulePool::Count(const KapsuleNode& node, int32_t delta) {
  if (node.status == NodeStatus::kDeleting) return;
  live_ += delta;
  ready_ += node.status == NodeStatus::kReady ? delta : 0;
  old_ += node.version != version_ ? delta : 0;
}

}  // namespace mpsim::kapsule
