// The progress of a node-group operation, checked every kTick: an operation
// ends once its instances are in place and their Nodes Ready, and the group
// is ACTIVE a settleDelay later. A version update walks the four phases of
// docs/reference/aws-managed.md §2.2.
#include <algorithm>
#include <vector>

#include "api/objects.h"
#include "models/eks/node_group.h"

namespace mpsim::eks {

void NodeGroup::Tick() {
  if (ticking_) return;
  ticking_ = true;
  loop_->After(kTick, [this] {
    ticking_ = false;
    if (phase_ == Phase::kNone || settling_) return;
    Step();
    if (phase_ != Phase::kNone && !settling_) Tick();
  });
}

bool NodeGroup::NodeReady(const std::string& id) const {
  const auto node = workload_->server()->Store<Node>().Find({.ns = "", .name = id});
  return node != nullptr && IsConditionTrue(node->status.conditions, "Ready");
}

// Every live instance is in service with a Ready Node, none is missing and
// none is still terminating.
bool NodeGroup::AllLiveReady() const {
  if (live_ != desired_ || activity_ || static_cast<int32_t>(instances_.size()) != live_) {
    return false;
  }
  for (const Instance* inst : order_.Members()) {
    if (inst->state == InstanceState::kTerminating) continue;
    if (inst->state != InstanceState::kInService || !NodeReady(inst->id)) return false;
  }
  return true;
}

void NodeGroup::Step() {
  switch (phase_) {
    case Phase::kCreate:
    case Phase::kScale:
    case Phase::kScaleDown:
      if (AllLiveReady()) Settle();
      return;
    case Phase::kScaleUp:
      // §2.2: the new nodes (the surge) have launched and are all Ready;
      // then the old ones are cordoned.
      if (!AllLiveReady()) return;
      phase_ = Phase::kUpgrade;
      rec_->Change(loop_->Now(), "Nodegroup", pool_, "updatePhase", "scaleUp", "upgrade", pool_);
      UpgradeStep();
      return;
    case Phase::kUpgrade:
      UpgradeStep();
      return;
    case Phase::kDelete:
      if (instances_.empty()) Settle();
      return;
    case Phase::kSetup:
    case Phase::kNone:
      return;
  }
}

// The upgrade loop (§2.2, default strategy): up to maxUnavailable nodes on
// the old version, picked at random, are cordoned, wait 60 s and are
// terminated; the ASG, still at its surged size, replaces them on the new
// version. The next batch starts once the replacements are Ready. Draining
// (and its 15 min PodEvictionFailure) has no pods to act on in the model.
void NodeGroup::UpgradeStep() {
  if (cordon_wait_ || !AllLiveReady()) return;
  std::vector<std::string> old;
  for (const Instance* inst : order_.Members()) {
    if (inst->state != InstanceState::kTerminating && inst->generation < generation_) {
      old.push_back(inst->id);
    }
  }
  if (old.empty()) {
    phase_ = Phase::kScaleDown;
    rec_->Change(loop_->Now(), "Nodegroup", pool_, "updatePhase", "upgrade", "scaleDown", pool_);
    SetDesired(restore_desired_);
    return;
  }
  const std::vector<std::string> batch =
      DrawWithoutReplacement(std::move(old), UpdateParallelism(), &pick_rng_);
  cordon_wait_ = true;
  loop_->After(kCordonWait, [this, batch] {
    cordon_wait_ = false;
    for (const std::string& id : batch) Terminate(id);
    ScheduleActivity(Sample(opts_.reaction_delay, op_rng_));
  });
}

// The operation's last change is done: ACTIVE (or gone) a settleDelay later.
void NodeGroup::Settle() {
  settling_ = true;
  loop_->After(Sample(opts_.settle_delay, op_rng_), [this, op = operations_] {
    if (op != operations_) return;  // a delete started meanwhile
    settling_ = false;
    if (phase_ == Phase::kDelete) {
      phase_ = Phase::kNone;
      asg_made_ = false;
      SetStatus(NodegroupStatus::kAbsent);
      return;
    }
    if (!target_minor_.empty()) {
      rec_->Change(loop_->Now(), "Nodegroup", pool_, "version", minor_, target_minor_, pool_);
      minor_ = target_minor_;
      target_minor_.clear();
      rec_->Change(loop_->Now(), "Nodegroup", pool_, "updatePhase", "scaleDown", "", pool_);
    }
    phase_ = Phase::kNone;
    SetStatus(NodegroupStatus::kActive);
  });
}

}  // namespace mpsim::eks
