#include "models/oci/instance_pool.h"

#include <utility>

#include "models/oci/ocid.h"

namespace mpsim::oci {

const char* InstancePoolStateName(InstancePoolState s) {
  switch (s) {
    case InstancePoolState::kAbsent:
      return "";
    case InstancePoolState::kProvisioning:
      return "PROVISIONING";
    case InstancePoolState::kScaling:
      return "SCALING";
    case InstancePoolState::kRunning:
      return "RUNNING";
    case InstancePoolState::kTerminating:
      return "TERMINATING";
    case InstancePoolState::kTerminated:
      return "TERMINATED";
  }
  return "";
}

InstancePool::InstancePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec,
                           std::string pool, FleetOptions opts, uint64_t seed)
    : loop_(loop),
      rec_(rec),
      pool_(pool),
      fleet_(loop, workload, rec, std::move(pool), std::move(opts), seed, kInstanceWords,
             [this] { Settle(); }) {}

InstanceConfiguration InstancePool::CreateInstanceConfiguration(const std::string& version,
                                                                const std::string& data_hash) {
  InstanceConfiguration ic{
      NewOcid("instanceconfiguration", fleet_.options().region, fleet_.id_rng()), version,
      data_hash};
  configs_[ic.id] = ic;
  return ic;
}

const InstanceConfiguration* InstancePool::GetInstanceConfiguration(const std::string& id) const {
  auto it = configs_.find(id);
  return it == configs_.end() ? nullptr : &it->second;
}

Status InstancePool::Create(int32_t size, const std::string& config_id) {
  if (state_ != InstancePoolState::kAbsent) return Status::Conflict("instance pool exists");
  if (GetInstanceConfiguration(config_id) == nullptr) {
    return Status::Invalid("instance configuration " + config_id + " not found");
  }
  ocid_ = NewOcid("instancepool", fleet_.options().region, fleet_.id_rng());
  size_ = size;
  config_id_ = config_id;
  SetState(InstancePoolState::kProvisioning);
  Resize();
  Settle();
  return Status::Ok();
}

// A new configuration changes nothing on the instances already there
// (docs/reference/oci-scaleway.md §1.4: it "only affect[s] new instances").
Status InstancePool::Update(int32_t size, const std::string& config_id) {
  if (state_ == InstancePoolState::kAbsent || state_ == InstancePoolState::kTerminated) {
    return Status::NotFound("instance pool " + pool_);
  }
  if (GetInstanceConfiguration(config_id) == nullptr) {
    return Status::Invalid("instance configuration " + config_id + " not found");
  }
  // One row per version the pool's configuration moves to; a new bootstrap
  // token alone is a new configuration too, but of the same version.
  const std::string& was = configs_.at(config_id_).version;
  const std::string& now = configs_.at(config_id).version;
  if (was != now)
    rec_->Change(loop_->Now(), "InstancePool", pool_, "instanceConfiguration", was, now, pool_);
  config_id_ = config_id;
  if (size == size_) return Status::Ok();
  size_ = size;
  SetState(InstancePoolState::kScaling);
  Resize();
  Settle();
  return Status::Ok();
}

Status InstancePool::Terminate() {
  if (state_ == InstancePoolState::kAbsent || state_ == InstancePoolState::kTerminated) {
    return Status::NotFound("instance pool " + pool_);
  }
  SetState(InstancePoolState::kTerminating);
  std::vector<uint64_t> all;
  for (const auto& [seq, m] : fleet_.members()) all.push_back(seq);
  for (uint64_t seq : all) fleet_.Terminate(seq);
  Settle();
  return Status::Ok();
}

void InstancePool::Resize() {
  const std::string& version = configs_.at(config_id_).version;
  for (int32_t n = fleet_.live(); n < size_; ++n) fleet_.Launch(version);
  if (fleet_.live() > size_) {
    for (uint64_t seq : fleet_.ScaleInOrder(fleet_.live() - size_)) fleet_.Terminate(seq);
  }
}

void InstancePool::Settle() {
  const bool done = fleet_.live() == size_ && fleet_.up() == size_ &&
                    static_cast<int32_t>(fleet_.members().size()) == size_;
  switch (state_) {
    case InstancePoolState::kProvisioning:
    case InstancePoolState::kScaling:
      if (done) SetState(InstancePoolState::kRunning);
      return;
    case InstancePoolState::kTerminating:
      if (fleet_.members().empty()) SetState(InstancePoolState::kTerminated);
      return;
    default:
      return;
  }
}

void InstancePool::SetState(InstancePoolState s) {
  if (s == state_) return;
  rec_->Change(loop_->Now(), "InstancePool", pool_, "lifecycleState", InstancePoolStateName(state_),
               InstancePoolStateName(s), pool_);
  state_ = s;
}

}  // namespace mpsim::oci
