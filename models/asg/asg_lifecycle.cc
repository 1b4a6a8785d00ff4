// One instance's way through the group (docs/reference/providers.md §1.1): Pending, the
// launch hook's Pending:Wait, InService, spot notices, Terminating, the
// termination hook's Terminating:Wait, Terminated.
#include <algorithm>

#include "models/asg/auto_scaling_group.h"

namespace mpsim::asg {

const char* StateName(State s) {
  switch (s) {
    case State::kPending:
      return "Pending";
    case State::kPendingWait:
      return "Pending:Wait";
    case State::kPendingProceed:
      return "Pending:Proceed";
    case State::kInService:
      return "InService";
    case State::kTerminating:
      return "Terminating";
    case State::kTerminatingWait:
      return "Terminating:Wait";
    case State::kTerminatingProceed:
      return "Terminating:Proceed";
  }
  return "Unknown";
}

bool Leaving(State s) {
  return s == State::kTerminating || s == State::kTerminatingWait ||
         s == State::kTerminatingProceed;
}

// EC2 has the instance running. With a launch hook it boots while it waits
// in Pending:Wait for CompleteLifecycleAction or the heartbeat timeout.
void AutoScalingGroup::OnRunning(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.state != State::kPending) return;
  if (!opts_.launch_hook.configured) return OnInService(&it->second);
  SetState(&it->second, State::kPendingWait);
  Boot(it->second);
  const HookOutcome end = ResolveHook(opts_.launch_hook, hook_rng_);
  loop_->After(end.after, [this, id, result = end.result] { EndLaunchWait(id, result); });
}

void AutoScalingGroup::EndLaunchWait(const std::string& id, HookResult result) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.state != State::kPendingWait) return;
  if (result == HookResult::kAbandon) {
    // ABANDON on launch: the instance is terminated and the group launches
    // another (lifecycle-hooks-overview.html).
    Terminate(id);
    ScheduleActivity(Sample(opts_.reaction_delay, activity_rng_));
    return;
  }
  SetState(&it->second, State::kPendingProceed);
  OnInService(&it->second);
}

void AutoScalingGroup::OnInService(Instance* inst) {
  const bool booted = inst->state != State::kPending;  // it booted in Pending:Wait
  SetState(inst, State::kInService);
  if (!booted) Boot(*inst);
  // "The warm-up period does not start until the lifecycle hook actions are
  // complete" (docs/reference/providers.md §1.2): it starts here.
  if (refresh_ && inst->launch_template_version >= refresh_->launch_template_version) {
    loop_->After(opts_.instance_warmup, [this, id = refresh_->id] { EndWarmup(id); });
  }
  ScheduleSpotNotice(inst->id);
  MaybeEndCancel();
}

void AutoScalingGroup::Boot(const Instance& inst) {
  // The Node's providerID always carries the zone; only CAPA's list may not.
  // Without that fault the list entry is the same text: share its buffer.
  SharedString id = inst.missing_az ? SharedString(ProviderIdOf(inst)) : inst.list_entry;
  workload_->InstanceBooted(pool_, inst.id, std::move(id), inst.kubelet_version);
}

// Interruptions of one instance come as a Poisson process of
// `spotInterruptionRate` an hour, so the time to its notice is exponential.
void AutoScalingGroup::ScheduleSpotNotice(const std::string& id) {
  if (opts_.spot_interruption_rate <= 0) return;
  const double mean = static_cast<double>(kHour) / opts_.spot_interruption_rate;
  const DistSpec wait = DistSpec::Exponential(std::max<Duration>(1, static_cast<Duration>(mean)));
  loop_->After(Sample(wait, spot_rng_), [this, id] {
    auto it = instances_.find(id);
    if (it == instances_.end() || it->second.state != State::kInService) return;
    rec_->Fault(loop_->Now(), pool_, id, "SpotInterruption");
    loop_->After(kSpotNotice, [this, id] { SpotReclaim(id); });
  });
}

// The notice ran out: EC2 reclaims the instance, the group's health check
// sees it leave `running` and launches a replacement (docs/reference/providers.md §1.3).
// No termination hook holds it: the instance is gone whatever a hook says.
void AutoScalingGroup::SpotReclaim(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || Leaving(it->second.state)) return;
  Terminate(id, /*run_hook=*/false);
  if (!deleting_) ScheduleActivity(Sample(opts_.reaction_delay, activity_rng_));
}

void AutoScalingGroup::Terminate(const std::string& id, bool run_hook) {
  auto it = instances_.find(id);
  if (it == instances_.end() || Leaving(it->second.state)) return;
  SetState(&it->second, State::kTerminating);
  // A ForceDelete of the group runs no hooks (see Delete).
  if (run_hook && opts_.termination_hook.configured && !deleting_) {
    SetState(&it->second, State::kTerminatingWait);
    const HookOutcome end = ResolveHook(opts_.termination_hook, hook_rng_);
    loop_->After(end.after, [this, id] { EndTerminateWait(id); });
    return;
  }
  loop_->After(Sample(opts_.delete_delay, delete_rng_), [this, id] { Remove(id); });
}

// "If the instance is terminating, both ABANDON and CONTINUE allow the
// instance to terminate" (lifecycle-hooks-overview.html).
void AutoScalingGroup::EndTerminateWait(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second.state != State::kTerminatingWait) return;
  SetState(&it->second, State::kTerminatingProceed);
  loop_->After(Sample(opts_.delete_delay, delete_rng_), [this, id] { Remove(id); });
}

void AutoScalingGroup::Remove(const std::string& id) {
  auto gone = instances_.find(id);
  if (gone == instances_.end()) return;
  rec_->Change(loop_->Now(), "Instance", id, "state", StateName(gone->second.state), "Terminated",
               pool_);
  Forget(gone);
  workload_->InstanceGone(id);
  if (deleting_ && instances_.empty()) exists_ = false;
  MaybeEndCancel();
}

void AutoScalingGroup::SetState(Instance* inst, State s) {
  if (Leaving(s) && !Leaving(inst->state)) {
    --zone_live_[inst->zone];
    --live_;
  }
  if (inst->state == State::kInService) --in_service_;
  if (s == State::kInService) ++in_service_;
  rec_->Change(loop_->Now(), "Instance", inst->id, "state", StateName(inst->state), StateName(s),
               pool_);
  inst->state = s;
}

}  // namespace mpsim::asg
