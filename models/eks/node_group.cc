#include "models/eks/node_group.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "api/objects.h"

namespace mpsim::eks {
namespace {

// {major, minor} of "1.30" or "v1.30.2"; {0, 0} if unreadable.
std::pair<int, int> ParseMinor(const std::string& v) {
  std::string_view s = v;
  if (!s.empty() && s.front() == 'v') s.remove_prefix(1);
  int major = 0, minor = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), major);
  if (ec != std::errc() || p == s.data() + s.size() || *p != '.') return {0, 0};
  std::from_chars(p + 1, s.data() + s.size(), minor);
  return {major, minor};
}

}  // namespace

const char* NodegroupStatusName(NodegroupStatus s) {
  switch (s) {
    case NodegroupStatus::kAbsent:
      return "";
    case NodegroupStatus::kCreating:
      return "CREATING";
    case NodegroupStatus::kActive:
      return "ACTIVE";
    case NodegroupStatus::kUpdating:
      return "UPDATING";
    case NodegroupStatus::kDeleting:
      return "DELETING";
    case NodegroupStatus::kCreateFailed:
      return "CREATE_FAILED";
    case NodegroupStatus::kDeleteFailed:
      return "DELETE_FAILED";
    case NodegroupStatus::kDegraded:
      return "DEGRADED";
  }
  return "";
}

std::string ProviderIdOf(const std::string& zone, const std::string& id) {
  return "aws:///" + zone + "/" + id;
}

std::string MinorOf(const std::string& version) {
  const auto [major, minor] = ParseMinor(version);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string NextMinor(const std::string& minor) {
  const auto [major, m] = ParseMinor(minor);
  return std::to_string(major) + "." + std::to_string(m + 1);
}

int CompareMinor(const std::string& a, const std::string& b) {
  const auto pa = ParseMinor(a), pb = ParseMinor(b);
  return pa < pb ? -1 : (pa == pb ? 0 : 1);
}

int32_t SurgeOf(int32_t zones_with_nodes, int32_t max_unavailable) {
  return std::max(2 * zones_with_nodes, max_unavailable);
}

int32_t MaxUnavailableOf(int32_t max_unavailable, int32_t percentage, int32_t size) {
  if (max_unavailable > 0) return max_unavailable;
  return std::max(1, size * percentage / 100);
}

NodeGroup::NodeGroup(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
                     EksOptions opts, uint64_t seed)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(std::move(opts)),
      op_rng_(StreamFor(seed, "eks/" + pool_ + "/operation")),
      launch_rng_(StreamFor(seed, "eks/" + pool_ + "/launch")),
      delete_rng_(StreamFor(seed, "eks/" + pool_ + "/delete")),
      id_rng_(StreamFor(seed, "eks/" + pool_ + "/ids")),
      pick_rng_(StreamFor(seed, "eks/" + pool_ + "/pick")),
      fault_rng_(StreamFor(seed, "eks/" + pool_ + "/faults")) {}

// EKS validates the scaling config itself (§2.3): min <= desired <= max, and
// the nodes-per-node-group quota (§2.4). The message texts are those
// third-party reports quote (unverified).
Status NodeGroup::CheckScaling(const ScalingConfig& s) const {
  const auto bad = [](const std::string& m) {
    return Status::Invalid("InvalidParameterException: " + m);
  };
  if (s.desired > opts_.quota || (s.max_size && *s.max_size > opts_.quota)) {
    return bad(
        "the node group's size exceeds the EKS service quota of nodes per managed node "
        "group (" +
        std::to_string(opts_.quota) + ")");
  }
  if (s.min_size && *s.min_size > s.desired) {
    return bad("Minimum capacity " + std::to_string(*s.min_size) +
               " can't be greater than desired size " + std::to_string(s.desired));
  }
  if (s.max_size && s.desired > *s.max_size) {
    return bad("Desired capacity " + std::to_string(s.desired) +
               " can't be greater than max size " + std::to_string(*s.max_size));
  }
  return Status::Ok();
}

// A node group runs one update at a time: a request while it is not ACTIVE
// is refused (ResourceInUseException, the API's error for a busy resource;
// that EKS answers this one with it is unverified, §1.7).
Status NodeGroup::CheckIdle(const char* op) const {
  if (status_ == NodegroupStatus::kAbsent) {
    return Status::NotFound("ResourceNotFoundException: No node group found for name: " + pool_);
  }
  if (status_ == NodegroupStatus::kActive) return Status::Ok();
  return Status::Conflict(std::string("ResourceInUseException: ") + op + ": node group " + pool_ +
                          " is " + NodegroupStatusName(status_));
}

Status NodeGroup::Create(const ScalingConfig& scaling, const std::string& minor,
                         const std::string& kubelet) {
  if (status_ != NodegroupStatus::kAbsent) {
    return Status::AlreadyExists("ResourceInUseException: NodeGroup already exists: " + pool_);
  }
  if (Status s = CheckScaling(scaling); !s.ok()) {
    rec_->Fault(loop_->Now(), pool_, pool_, "CreateNodegroup.InvalidParameterException");
    return s;
  }
  scaling_ = scaling;
  minor_ = minor;
  kubelet_ = kubelet;
  SetStatus(NodegroupStatus::kCreating);
  phase_ = Phase::kCreate;
  loop_->After(Sample(opts_.create_delay, op_rng_), [this] {
    if (phase_ != Phase::kCreate) return;
    asg_made_ = true;
    SetDesired(scaling_.desired);
    Tick();
  });
  return Status::Ok();
}

Status NodeGroup::UpdateConfig(const ScalingConfig& scaling) {
  if (Status s = CheckIdle("UpdateNodegroupConfig"); !s.ok()) return s;
  // The 400 is a Fault row too, so that a scenario can expect it (CAPA#5746).
  if (Status s = CheckScaling(scaling); !s.ok()) {
    rec_->Fault(loop_->Now(), pool_, pool_, "UpdateNodegroupConfig.InvalidParameterException");
    return s;
  }
  scaling_ = scaling;
  SetStatus(NodegroupStatus::kUpdating);
  phase_ = Phase::kScale;
  SetDesired(scaling.desired);
  Tick();
  return Status::Ok();
}

// §2.2: setup (a new launch-template version), scale up, upgrade, scale down.
Status NodeGroup::UpdateVersion(const std::string& minor, const std::string& kubelet) {
  if (Status s = CheckIdle("UpdateNodegroupVersion"); !s.ok()) return s;
  if (minor != NextMinor(minor_)) {
    return Status::Invalid("InvalidParameterException: node group " + pool_ + " at " + minor_ +
                           " can only be updated one minor version at a time, not to " + minor);
  }
  SetStatus(NodegroupStatus::kUpdating);
  phase_ = Phase::kSetup;
  loop_->After(Sample(opts_.update_setup_delay, op_rng_), [this, minor, kubelet] {
    if (phase_ != Phase::kSetup) return;
    ++generation_;
    target_minor_ = minor;
    kubelet_ = kubelet;
    std::map<std::string, int32_t> zones;
    for (const auto& [id, inst] : instances_) {
      if (inst.state != InstanceState::kTerminating) ++zones[inst.zone];
    }
    restore_desired_ = desired_;
    phase_ = Phase::kScaleUp;
    surge_ = SurgeOf(static_cast<int32_t>(zones.size()), UpdateParallelism());
    rec_->Change(loop_->Now(), "Nodegroup", pool_, "updatePhase", "setup", "scaleUp", pool_);
    SetDesired(desired_ + surge_);
    Tick();
  });
  return Status::Ok();
}

Status NodeGroup::Delete() {
  if (status_ == NodegroupStatus::kAbsent) {
    return Status::NotFound("ResourceNotFoundException: No node group found for name: " + pool_);
  }
  if (status_ == NodegroupStatus::kDeleting) return Status::Ok();
  SetStatus(NodegroupStatus::kDeleting);
  phase_ = Phase::kDelete;
  settling_ = false;
  ++operations_;
  loop_->After(Sample(opts_.delete_group_delay, op_rng_), [this] {
    SetDesired(0);
    Tick();
  });
  return Status::Ok();
}

std::vector<const Instance*> NodeGroup::Describe() const {
  const std::vector<Instance*>& members = order_.Members();
  return {members.begin(), members.end()};
}

std::vector<std::string> NodeGroup::InService() const {
  std::vector<std::string> out;
  for (const Instance* inst : order_.Members()) {
    if (inst->state == InstanceState::kInService) out.push_back(inst->id);
  }
  return out;
}

void NodeGroup::Kill(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end()) return;
  rec_->Fault(loop_->Now(), pool_, id, "instance.killed");
  if (it->second.state != InstanceState::kTerminating) --live_, --zone_live_[it->second.zone];
  Remove(id);
  ScheduleActivity(Sample(opts_.reaction_delay, op_rng_));
}

void NodeGroup::SetStatus(NodegroupStatus s) {
  if (s == status_) return;
  rec_->Change(loop_->Now(), "Nodegroup", pool_, "status", NodegroupStatusName(status_),
               NodegroupStatusName(s), pool_);
  status_ = s;
}

int32_t NodeGroup::UpdateParallelism() const {
  return MaxUnavailableOf(opts_.max_unavailable, opts_.max_unavailable_percentage, desired_);
}

}  // namespace mpsim::eks
