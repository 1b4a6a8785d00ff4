#include "models/oci/node_pool.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "models/oci/ocid.h"

namespace mpsim::oci {

const char* NodePoolStateName(NodePoolState s) {
  switch (s) {
    case NodePoolState::kAbsent:
      return "";
    case NodePoolState::kCreating:
      return "CREATING";
    case NodePoolState::kActive:
      return "ACTIVE";
    case NodePoolState::kUpdating:
      return "UPDATING";
    case NodePoolState::kDeleting:
      return "DELETING";
    case NodePoolState::kDeleted:
      return "DELETED";
  }
  return "";
}

CycleStep NextCycleStep(const CycleState& s, const NodeCycling& c) {
  CycleStep step;
  step.drain_not_active = s.stale_not_active;
  const int32_t live = s.live - step.drain_not_active;
  step.launch = std::max(0, std::min(s.size - s.fresh, s.size + c.maximum_surge - live));
  const int32_t spare = std::max(0, s.available - (s.size - c.maximum_unavailable));
  step.drain_active = std::min(s.stale_active, spare);
  return step;
}

NodePool::NodePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
                   FleetOptions opts, NodeCycling cycling, uint64_t seed)
    : loop_(loop),
      rec_(rec),
      pool_(pool),
      cycling_(std::move(cycling)),
      drain_rng_(StreamFor(seed, "oke/" + pool + "/drain")),
      fleet_(loop, workload, rec, std::move(pool), std::move(opts), seed, kNodeWords,
             [this] { Settle(); }) {}

Status NodePool::Create(int32_t size, const std::string& version) {
  if (state_ != NodePoolState::kAbsent) return Status::Conflict("node pool exists");
  ocid_ = NewOcid("nodepool", fleet_.options().region, fleet_.id_rng());
  size_ = size;
  version_ = version;
  SetState(NodePoolState::kCreating);
  Resize();
  Settle();
  return Status::Ok();
}

// Without cycling the new version reaches only the nodes added later
// (docs/reference/oci-scaleway.md §2.4).
Status NodePool::Update(int32_t size, const std::string& version) {
  if (state_ == NodePoolState::kAbsent || state_ == NodePoolState::kDeleted) {
    return Status::NotFound("node pool " + pool_);
  }
  if (version != version_) {
    rec_->Change(loop_->Now(), "NodePool", pool_, "kubernetesVersion", version_, version, pool_);
  }
  size_ = size;
  version_ = version;
  SetState(NodePoolState::kUpdating);
  Resize();
  Settle();
  return Status::Ok();
}

Status NodePool::Delete() {
  if (state_ == NodePoolState::kAbsent || state_ == NodePoolState::kDeleted) {
    return Status::NotFound("node pool " + pool_);
  }
  SetState(NodePoolState::kDeleting);
  std::vector<uint64_t> all;
  for (const auto& [seq, m] : fleet_.members()) all.push_back(seq);
  draining_.clear();
  for (uint64_t seq : all) fleet_.Terminate(seq);
  Settle();
  return Status::Ok();
}

bool NodePool::Outdated(const Fleet::Member& m) const {
  return cycling_.enabled && m.version != version_ && m.phase != Fleet::Phase::kGoing;
}

// Scale-in takes outdated nodes first, then as an instance pool does
// (assumed: OKE does not document its order).
void NodePool::Resize() {
  const int32_t excess = fleet_.live() - size_;
  std::vector<uint64_t> victims;
  for (const auto& [seq, m] : fleet_.members()) {
    if (static_cast<int32_t>(victims.size()) < excess && Outdated(m)) victims.push_back(seq);
  }
  for (uint64_t seq : fleet_.ScaleInOrder(std::max(0, excess))) {
    if (static_cast<int32_t>(victims.size()) >= excess) break;
    if (std::find(victims.begin(), victims.end(), seq) == victims.end()) victims.push_back(seq);
  }
  for (uint64_t seq : victims) {
    draining_.erase(seq);
    fleet_.Terminate(seq);
  }
  for (int32_t n = fleet_.live(); n < size_; ++n) fleet_.Launch(version_);
}

void NodePool::Cycle() {
  CycleState s{.size = size_, .live = fleet_.live()};
  std::vector<uint64_t> stale_not_active, stale_active;
  for (const auto& [seq, m] : fleet_.members()) {
    if (m.phase == Fleet::Phase::kGoing) continue;
    const bool draining = draining_.count(seq) > 0;
    if (!Outdated(m)) ++s.fresh;
    if (m.phase == Fleet::Phase::kUp && !draining) ++s.available;
    if (!Outdated(m) || draining) continue;
    (m.phase == Fleet::Phase::kUp ? stale_active : stale_not_active).push_back(seq);
  }
  s.stale_not_active = static_cast<int32_t>(stale_not_active.size());
  s.stale_active = static_cast<int32_t>(stale_active.size());
  const CycleStep step = NextCycleStep(s, cycling_);
  for (uint64_t seq : stale_not_active) fleet_.Terminate(seq);
  for (int32_t i = 0; i < step.launch; ++i) fleet_.Launch(version_);
  for (int32_t i = 0; i < step.drain_active; ++i) Drain(stale_active[static_cast<size_t>(i)]);
}

// OKE cordons and drains the node, waiting at most the eviction grace,
// then deletes it.
void NodePool::Drain(uint64_t seq) {
  draining_.insert(seq);
  const Duration d = std::min(Sample(cycling_.drain_delay, drain_rng_), cycling_.eviction_grace);
  loop_->After(d, [this, seq] {
    if (draining_.erase(seq) == 0) return;
    fleet_.Terminate(seq);
  });
}

void NodePool::Settle() {
  if (settling_) return;
  settling_ = true;
  if (state_ == NodePoolState::kCreating || state_ == NodePoolState::kUpdating) {
    if (cycling_.enabled) Cycle();
    bool outdated = false;
    for (const auto& [seq, m] : fleet_.members()) outdated = outdated || Outdated(m);
    const bool done = fleet_.live() == size_ && fleet_.up() == size_ &&
                      static_cast<int32_t>(fleet_.members().size()) == size_ && !outdated &&
                      draining_.empty();
    if (done) SetState(NodePoolState::kActive);
  } else if (state_ == NodePoolState::kDeleting && fleet_.members().empty()) {
    SetState(NodePoolState::kDeleted);
  }
  settling_ = false;
}

void NodePool::SetState(NodePoolState s) {
  if (s == state_) return;
  rec_->Change(loop_->Now(), "NodePool", pool_, "lifecycleState", NodePoolStateName(state_),
               NodePoolStateName(s), pool_);
  state_ = s;
}

}  // namespace mpsim::oci
