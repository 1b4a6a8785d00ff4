#include "models/rosa/node_pool.h"

#include <cstdio>

#include "api/objects.h"

namespace mpsim::rosa {
namespace {

const char* Ec2StateName(Ec2State s) {
  switch (s) {
    case Ec2State::kPending:
      return "pending";
    case Ec2State::kRunning:
      return "running";
    case Ec2State::kShuttingDown:
      return "shutting-down";
  }
  return "";
}

}  // namespace

NodePool::NodePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
                   RosaOptions opts, uint64_t seed)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(std::move(opts)),
      op_rng_(StreamFor(seed, "rosa/" + pool_ + "/operation")),
      launch_rng_(StreamFor(seed, "rosa/" + pool_ + "/launch")),
      delete_rng_(StreamFor(seed, "rosa/" + pool_ + "/delete")),
      id_rng_(StreamFor(seed, "rosa/" + pool_ + "/ids")),
      fault_rng_(StreamFor(seed, "rosa/" + pool_ + "/faults")) {}

bool NodePool::NodeReady(const std::string& id) const {
  const auto node = workload_->server()->Store<Node>().Find({.ns = "", .name = id});
  return node != nullptr && IsConditionTrue(node->status.conditions, "Ready");
}

int32_t NodePool::CurrentReplicas() const {
  int32_t n = 0;
  for (const Instance* inst : order_.Members()) {
    if (inst->state == Ec2State::kRunning && NodeReady(inst->id)) ++n;
  }
  return n;
}

Status NodePool::Create(int32_t replicas, const std::string& version) {
  if (exists_) return Status::AlreadyExists("node pool " + pool_ + " already exists");
  exists_ = true;
  replicas_ = replicas;
  version_ = version;
  rec_->Change(loop_->Now(), "NodePool", pool_, "replicas", "", std::to_string(replicas), pool_);
  ScheduleActivity(Sample(opts_.reaction_delay, op_rng_));
  return Status::Ok();
}

Status NodePool::SetReplicas(int32_t replicas) {
  if (!exists_) return Status::NotFound("node pool " + pool_ + " not found");
  if (replicas == replicas_) return Status::Ok();
  rec_->Change(loop_->Now(), "NodePool", pool_, "replicas", std::to_string(replicas_),
               std::to_string(replicas), pool_);
  replicas_ = replicas;
  ScheduleActivity(Sample(opts_.reaction_delay, op_rng_));
  return Status::Ok();
}

Status NodePool::ScheduleUpgrade(const std::string& version, Time next_run) {
  if (!exists_) return Status::NotFound("node pool " + pool_ + " not found");
  upgrade_ = UpgradePolicy{version, next_run, "scheduled"};
  rec_->Change(loop_->Now(), "NodePool", pool_, "upgradePolicy", "", version, pool_);
  const Duration wait = next_run - loop_->Now() + Sample(opts_.upgrade_start_delay, op_rng_);
  loop_->After(std::max<Duration>(wait, 0), [this] { StartUpgrade(); });
  return Status::Ok();
}

Status NodePool::Delete() {
  if (!exists_) return Status::NotFound("node pool " + pool_ + " not found");
  exists_ = false;
  replicas_ = 0;
  upgrade_.reset();
  rolling_ = false;
  rec_->Change(loop_->Now(), "NodePool", pool_, "deleted", "", "true", pool_);
  ScheduleActivity(0);
  return Status::Ok();
}

std::vector<const Instance*> NodePool::RunningOrPending() const {
  std::vector<const Instance*> out;
  for (const Instance* inst : order_.Members()) {
    if (inst->state != Ec2State::kShuttingDown) out.push_back(inst);
  }
  return out;
}

std::vector<std::string> NodePool::Running() const {
  std::vector<std::string> out;
  for (const Instance* inst : order_.Members()) {
    if (inst->state == Ec2State::kRunning) out.push_back(inst->id);
  }
  return out;
}

void NodePool::Kill(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end()) return;
  rec_->Fault(loop_->Now(), pool_, id, "instance.killed");
  if (it->second.state != Ec2State::kShuttingDown) --live_;
  order_.Remove(it->second.seq);
  instances_.erase(it);
  workload_->InstanceGone(id);
  ScheduleActivity(Sample(opts_.reaction_delay, op_rng_));
}

void NodePool::ScheduleActivity(Duration delay) {
  if (activity_) return;
  activity_ = loop_->After(delay, [this] {
    activity_.reset();
    Activity();
  });
}

// Launch up to the replicas or terminate down to them; during a rolling
// replacement RollStep decides instead.
void NodePool::Activity() {
  if (rolling_) return RollStep();
  while (live_ < replicas_) {
    if (!LaunchOne(version_)) {
      ScheduleActivity(Sample(opts_.launch_retry, op_rng_));
      return;
    }
  }
  // Scale-in takes the newest instances first (HyperShift's choice is not
  // documented; assumed).
  const std::vector<Instance*>& members = order_.Members();
  for (auto it = members.rbegin(); it != members.rend() && live_ > replicas_; ++it) {
    if ((*it)->state != Ec2State::kShuttingDown) Terminate((*it)->id);
  }
}

// The NodePool's one subnet has one zone, so a launch EC2 has no capacity
// for (the zone's `capacity` used up, or an iceProbability draw) fails and
// waits for the next attempt; the current replicas stay below the replicas
// meanwhile (docs/reference/aws-managed.md §3.11).
bool NodePool::LaunchOne(const std::string& version) {
  auto cap = opts_.capacity.find(opts_.zone);
  const bool full =
      cap != opts_.capacity.end() && static_cast<int32_t>(instances_.size()) >= cap->second;
  if (full || fault_rng_.Bernoulli(opts_.ice_probability)) {
    rec_->Fault(loop_->Now(), pool_, opts_.zone, "InsufficientInstanceCapacity");
    return false;
  }
  char hex[24];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(id_rng_.Next()));
  const std::string id = std::string("i-0") + hex;
  Instance& inst = instances_[id];
  inst = Instance{id,      opts_.zone,  Ec2State::kPending,
                  version, next_seq_++, SharedString::Pinned("aws:///" + opts_.zone + "/" + id)};
  order_.Append(inst.seq, &inst);
  ++live_;
  rec_->ProviderApiCall(pool_, "ec2:RunInstances");
  rec_->Change(loop_->Now(), "Instance", id, "state", "", "pending", pool_);
  loop_->After(Sample(opts_.launch_delay, launch_rng_), [this, id] { OnRunning(id); });
  return true;
}

void NodePool::OnRunning(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.state != Ec2State::kPending) return;
  it->second.state = Ec2State::kRunning;
  rec_->Change(loop_->Now(), "Instance", id, "state", "pending", "running", pool_);
  workload_->InstanceBooted(pool_, id, it->second.provider_id, it->second.version);
}

void NodePool::Terminate(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.state == Ec2State::kShuttingDown) return;
  rec_->Change(loop_->Now(), "Instance", id, "state", Ec2StateName(it->second.state),
               "shutting-down", pool_);
  it->second.state = Ec2State::kShuttingDown;
  --live_;
  loop_->After(Sample(opts_.delete_delay, delete_rng_), [this, id] {
    auto gone = instances_.find(id);
    if (gone == instances_.end()) return;
    rec_->Change(loop_->Now(), "Instance", id, "state", "shutting-down", "terminated", pool_);
    order_.Remove(gone->second.seq);
    instances_.erase(gone);
    workload_->InstanceGone(id);
  });
}

void NodePool::StartUpgrade() {
  if (!upgrade_ || !exists_) return;
  upgrade_->state = "started";
  rolling_ = true;
  rec_->Change(loop_->Now(), "NodePool", pool_, "upgrade", version_, upgrade_->version, pool_);
  RollStep();
}

void NodePool::Tick() {
  if (ticking_) return;
  ticking_ = true;
  loop_->After(kRollTick, [this] {
    ticking_ = false;
    if (rolling_) RollStep();
  });
}

// One step of the rolling replacement (§3.6): new instances up to replicas
// + maxSurge, and old ones out while the Ready nodes stay at least replicas
// - maxUnavailable. Done when no old instance is left.
void NodePool::RollStep() {
  const std::string& target = upgrade_->version;
  std::vector<const Instance*> old;
  int32_t ready = 0;
  for (const Instance* inst : order_.Members()) {
    if (inst->state == Ec2State::kShuttingDown) continue;
    if (inst->version != target) old.push_back(inst);
    if (inst->state == Ec2State::kRunning && NodeReady(inst->id)) ++ready;
  }
  if (old.empty()) {
    rec_->Change(loop_->Now(), "NodePool", pool_, "version", version_, target, pool_);
    version_ = target;
    upgrade_.reset();
    rolling_ = false;
    ScheduleActivity(0);  // back to the replicas, should they have moved meanwhile
    return;
  }
  int32_t new_live = live_ - static_cast<int32_t>(old.size());
  while (live_ < replicas_ + opts_.max_surge && new_live < replicas_) {
    if (!LaunchOne(target)) break;
    ++new_live;
  }
  // Old instances not yet serving may go at once; serving ones only within
  // the unavailability budget.
  for (const Instance* inst : old) {
    const bool counted = inst->state == Ec2State::kRunning && NodeReady(inst->id);
    if (counted && ready - 1 < replicas_ - opts_.max_unavailable) continue;
    if (counted) --ready;
    Terminate(inst->id);
  }
  Tick();
}

}  // namespace mpsim::rosa
