// The pool's API operations and its status; the nodes' lives, scaling and
// upgrade steps are in kapsule_nodes.cc.
#include "models/kapsule/kapsule_pool.h"

#include "sim/distribution.h"

namespace mpsim::kapsule {

const char* PoolStatusName(PoolStatus s) {
  switch (s) {
    case PoolStatus::kAbsent:
      return "";
    case PoolStatus::kReady:
      return "ready";
    case PoolStatus::kScaling:
      return "scaling";
    case PoolStatus::kUpgrading:
      return "upgrading";
    case PoolStatus::kDeleting:
      return "deleting";
  }
  return "unknown";
}

KapsulePool::KapsulePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec,
                         std::string pool, KapsuleOptions opts, uint64_t seed)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(std::move(opts)),
      id_rng_(StreamFor(seed, "kapsule/" + pool_ + "/ids")),
      launch_rng_(StreamFor(seed, "kapsule/" + pool_ + "/launch")),
      delete_rng_(StreamFor(seed, "kapsule/" + pool_ + "/delete")),
      retry_rng_(StreamFor(seed, "kapsule/" + pool_ + "/retry")) {}

Status KapsulePool::Create(int32_t size, const std::string& version, const UpgradePolicy& policy) {
  if (status_ != PoolStatus::kAbsent) return Status::AlreadyExists("pool " + pool_);
  size_ = size;
  version_ = version;
  policy_ = policy;
  rec_->Change(loop_->Now(), "KapsulePool", pool_, "version", "", version_, pool_);
  SetStatus(PoolStatus::kScaling);
  Settle();
  return Status::Ok();
}

Status KapsulePool::Update(int32_t size, const UpgradePolicy& policy) {
  if (status_ == PoolStatus::kAbsent) return Status::NotFound("pool " + pool_);
  policy_ = policy;
  if (size == size_) return Status::Ok();
  rec_->Change(loop_->Now(), "KapsulePool", pool_, "size", std::to_string(size_),
               std::to_string(size), pool_);
  size_ = size;
  if (status_ == PoolStatus::kReady) SetStatus(PoolStatus::kScaling);
  Settle();
  return Status::Ok();
}

Status KapsulePool::Upgrade(const std::string& version) {
  if (status_ == PoolStatus::kAbsent) return Status::NotFound("pool " + pool_);
  rec_->Change(loop_->Now(), "KapsulePool", pool_, "version", version_, version, pool_);
  version_ = version;
  old_ = 0;
  for (const auto& [seq, node] : nodes_) {
    old_ += node.status != NodeStatus::kDeleting && node.version != version_;
  }
  SetStatus(PoolStatus::kUpgrading);
  Settle();
  return Status::Ok();
}

Status KapsulePool::Delete() {
  if (status_ == PoolStatus::kAbsent) return Status::NotFound("pool " + pool_);
  if (status_ == PoolStatus::kDeleting) return Status::Ok();
  SetStatus(PoolStatus::kDeleting);
  for (const auto& [seq, node] : nodes_) {
    if (node.status != NodeStatus::kDeleting) DeleteNode(seq);
  }
  Settle();
  return Status::Ok();
}

std::vector<const KapsuleNode*> KapsulePool::ListNodes() const {
  std::vector<const KapsuleNode*> out;
  out.reserve(nodes_.size());
  for (const auto& [seq, node] : nodes_) out.push_back(&node);
  return out;
}

void KapsulePool::Settle() {
  if (status_ == PoolStatus::kAbsent) return;
  if (status_ == PoolStatus::kDeleting) {
    if (nodes_.empty()) SetStatus(PoolStatus::kAbsent);
    return;
  }
  if (status_ == PoolStatus::kUpgrading) {
    StepUpgrade();
  } else {
    Scale();
  }
  if (Converged()) {
    SetStatus(PoolStatus::kReady);
  } else if (status_ == PoolStatus::kReady) {
    SetStatus(PoolStatus::kScaling);
  }
}

bool KapsulePool::Converged() const {
  return live_ == size_ && ready_ == live_ && old_ == 0 &&
         static_cast<int32_t>(nodes_.size()) == live_;
}

void KapsulePool::SetStatus(PoolStatus s) {
  if (s == status_) return;
  rec_->Change(loop_->Now(), "KapsulePool", pool_, "status", PoolStatusName(status_),
               PoolStatusName(s), pool_);
  status_ = s;
}

}  // namespace mpsim::kapsule
