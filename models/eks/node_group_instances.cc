// The node group's Auto Scaling Group: instances launched balanced over the
// zones within their capacity, Pending -> InService -> Terminating -> gone,
// and scale-in victims (docs/reference/aws-managed.md §2.3).
#include <algorithm>

#include "models/eks/node_group.h"

namespace mpsim::eks {
namespace {

const char* StateText(InstanceState s) {
  switch (s) {
    case InstanceState::kPending:
      return "Pending";
    case InstanceState::kInService:
      return "InService";
    case InstanceState::kTerminating:
      return "Terminating";
  }
  return "";
}

}  // namespace

void NodeGroup::SetDesired(int32_t desired) {
  desired_ = desired;
  ScheduleActivity(Sample(opts_.reaction_delay, op_rng_));
}

void NodeGroup::ScheduleActivity(Duration delay) {
  if (activity_) return;  // the pending activity reads desired_ when it runs
  activity_ = loop_->After(delay, [this] {
    activity_.reset();
    Activity();
  });
}

// One scaling activity: launch up to the desired count, or terminate down
// to it. A launch that fails in every zone fails the activity, which the ASG
// retries after launchRetry; EKS shows the failures as the group's health
// issue until the group is at its desired count (§2.7).
void NodeGroup::Activity() {
  while (live_ < desired_) {
    if (!LaunchOne()) {
      SetHealth("AsgInstanceLaunchFailures");
      ScheduleActivity(Sample(opts_.launch_retry, op_rng_));
      return;
    }
  }
  while (live_ > desired_) Terminate(ScaleInVictim());
  SetHealth("");
}

bool NodeGroup::ZoneFull(const std::string& zone) const {
  auto cap = opts_.capacity.find(zone);
  if (cap == opts_.capacity.end()) return false;
  auto used = zone_count_.find(zone);
  return used != zone_count_.end() && used->second >= cap->second;
}

// The zone with the fewest live instances; zones in their listed order on ties.
std::optional<std::string> NodeGroup::PickZone(const std::vector<std::string>& failed) const {
  std::optional<std::string> best;
  int32_t best_live = 0;
  for (const std::string& zone : opts_.zones) {
    if (std::find(failed.begin(), failed.end(), zone) != failed.end()) continue;
    auto l = zone_live_.find(zone);
    const int32_t live = l == zone_live_.end() ? 0 : l->second;
    if (!best || live < best_live) best = zone, best_live = live;
  }
  return best;
}

// As the ASG of the `asg` block: launch in the zone with the fewest
// instances and, when EC2 has no capacity there (the zone's `capacity` used
// up, or an iceProbability draw), try the next zone (docs/reference/providers.md §4.1).
bool NodeGroup::LaunchOne() {
  std::vector<std::string> failed;
  while (std::optional<std::string> zone = PickZone(failed)) {
    if (ZoneFull(*zone) || fault_rng_.Bernoulli(opts_.ice_probability)) {
      rec_->Fault(loop_->Now(), pool_, *zone, "InsufficientInstanceCapacity");
      failed.push_back(*zone);
      continue;
    }
    Launch(*zone);
    return true;
  }
  return false;
}

void NodeGroup::Launch(const std::string& zone) {
  char hex[24];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(id_rng_.Next()));
  const std::string id = std::string("i-0") + hex;
  Instance& inst = instances_[id];
  inst = Instance{id,
                  zone,
                  InstanceState::kPending,
                  kubelet_,
                  generation_,
                  next_seq_++,
                  SharedString::Pinned(ProviderIdOf(zone, id))};
  order_.Append(inst.seq, &inst);
  ++zone_count_[zone], ++zone_live_[zone], ++live_;
  rec_->ProviderApiCall(pool_, "ec2:RunInstances");
  rec_->Change(loop_->Now(), "Instance", id, "state", "", "Pending", pool_);
  loop_->After(Sample(opts_.launch_delay, launch_rng_), [this, id] { OnRunning(id); });
}

void NodeGroup::SetHealth(const char* issue) {
  if (health_ == issue) return;
  rec_->Change(loop_->Now(), "Nodegroup", pool_, "health", health_, issue, pool_);
  health_ = issue;
}

// Instances launched on a later version than the group's first boot a Node
// only when `upgradedNodesJoin` (CAPA#5672: a bootstrap that never joins).
void NodeGroup::OnRunning(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.state != InstanceState::kPending) return;
  Instance& inst = it->second;
  rec_->Change(loop_->Now(), "Instance", id, "state", "Pending", "InService", pool_);
  inst.state = InstanceState::kInService;
  if (inst.generation == 0 || opts_.upgraded_nodes_join) {
    workload_->InstanceBooted(pool_, id, inst.provider_id, inst.version);
  }
}

void NodeGroup::Terminate(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.state == InstanceState::kTerminating) return;
  rec_->Change(loop_->Now(), "Instance", id, "state", StateText(it->second.state), "Terminating",
               pool_);
  it->second.state = InstanceState::kTerminating;
  --live_, --zone_live_[it->second.zone];
  loop_->After(Sample(opts_.delete_delay, delete_rng_), [this, id] {
    if (!instances_.count(id)) return;
    rec_->Change(loop_->Now(), "Instance", id, "state", "Terminating", "Terminated", pool_);
    Remove(id);
  });
}

void NodeGroup::Remove(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end()) return;
  --zone_count_[it->second.zone];
  order_.Remove(it->second.seq);
  instances_.erase(it);
  workload_->InstanceGone(id);
}

// The ASG's Default termination policy as far as the model goes: the zone
// with the most live instances, then the oldest version step, then the
// earliest launched (the billing-hour rule has nothing to act on here).
std::string NodeGroup::ScaleInVictim() const {
  std::string zone;
  int32_t most = -1;
  for (const std::string& z : opts_.zones) {
    auto l = zone_live_.find(z);
    const int32_t live = l == zone_live_.end() ? 0 : l->second;
    if (live > most) zone = z, most = live;
  }
  const Instance* victim = nullptr;
  for (const Instance* inst : order_.Members()) {
    if (inst->state == InstanceState::kTerminating || inst->zone != zone) continue;
    if (victim == nullptr || inst->generation < victim->generation) victim = inst;
  }
  return victim == nullptr ? std::string() : victim->id;
}

}  // namespace mpsim::eks
