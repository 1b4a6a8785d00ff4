#include "models/asg/auto_scaling_group.h"

#include <algorithm>
#include <cstdio>

#include "models/asg/termination_policy.h"

namespace mpsim::asg {
namespace {

// 17 hex digits as EC2's; the group's block sits above the 44 low bits.
std::string InstanceId(uint32_t block, uint64_t n) {
  char buf[32];
  const uint64_t id = (static_cast<uint64_t>(block) << 44) | n;
  std::snprintf(buf, sizeof buf, "i-%017llx", static_cast<unsigned long long>(id));
  return buf;
}

}  // namespace

AutoScalingGroup::AutoScalingGroup(EventLoop* loop, WorkloadCluster* workload, Recorder* rec,
                                   std::string pool, AsgOptions opts, uint64_t seed)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(std::move(opts)),
      launch_rng_(StreamFor(seed, "asg/" + pool_ + "/launch")),
      delete_rng_(StreamFor(seed, "asg/" + pool_ + "/delete")),
      activity_rng_(StreamFor(seed, "asg/" + pool_ + "/activity")),
      fault_rng_(StreamFor(seed, "asg/" + pool_ + "/faults")),
      policy_rng_(StreamFor(seed, "asg/" + pool_ + "/termination")),
      hook_rng_(StreamFor(seed, "asg/" + pool_ + "/hooks")),
      spot_rng_(StreamFor(seed, "asg/" + pool_ + "/spot")),
      refresh_rng_(StreamFor(seed, "asg/" + pool_ + "/refresh")) {}

void AutoScalingGroup::Create(int32_t desired, const std::string& kubelet_version) {
  exists_ = true;
  kubelet_version_ = kubelet_version;
  SetDesired(desired);
}

void AutoScalingGroup::SetDesired(int32_t desired) {
  desired_ = desired;
  ScheduleActivity(Sample(opts_.reaction_delay, activity_rng_));
}

void AutoScalingGroup::NewLaunchTemplateVersion(const std::string& kubelet_version) {
  ++lt_version_;
  kubelet_version_ = kubelet_version;
  rec_->Change(loop_->Now(), "LaunchTemplate", pool_, "latestVersion",
               std::to_string(lt_version_ - 1), std::to_string(lt_version_), pool_);
}

bool AutoScalingGroup::StartInstanceRefresh() {
  if (refresh_) return false;
  Refresh r;
  r.id = ++refreshes_started_;
  r.launch_template_version = lt_version_;
  for (const Instance* inst : order_.Members()) {
    if (!Leaving(inst->state)) r.to_replace.push_back(inst->id);
  }
  refresh_ = std::move(r);
  RefreshStep();
  return true;
}

std::optional<RefreshStatus> AutoScalingGroup::UnfinishedRefresh() const {
  if (!refresh_) return std::nullopt;
  return refresh_->status;
}

bool AutoScalingGroup::CancelInstanceRefresh() {
  if (!refresh_ || refresh_->status != RefreshStatus::kInProgress) return false;
  refresh_->status = RefreshStatus::kCancelling;
  refresh_->to_replace.clear();
  MaybeEndCancel();
  return true;
}

void AutoScalingGroup::Delete() {
  deleting_ = true;
  desired_ = 0;
  refresh_.reset();
  std::vector<std::string> ids;
  for (const Instance* inst : order_.Members()) ids.push_back(inst->id);
  for (const std::string& id : ids) {
    // ForceDelete also "deletes any outstanding lifecycle actions"
    // (API_DeleteAutoScalingGroup): waiting instances go on at once.
    if (instances_.at(id).state == State::kTerminatingWait) {
      EndTerminateWait(id);
    } else {
      Terminate(id);
    }
  }
  if (instances_.empty()) exists_ = false;
}

void AutoScalingGroup::Kill(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end()) return;
  rec_->Fault(loop_->Now(), pool_, id, "instance.killed");
  rec_->Change(loop_->Now(), "Instance", id, "state", StateName(it->second.state), "Terminated",
               pool_);
  Forget(it);
  workload_->InstanceGone(id);
  MaybeEndCancel();
  // The EC2 health check sees it gone; the group replaces it.
  if (!deleting_) ScheduleActivity(Sample(opts_.reaction_delay, activity_rng_));
}

void AutoScalingGroup::TerminateInstance(const std::string& id) {
  auto it = instances_.find(id);
  if (it == instances_.end() || Leaving(it->second.state)) return;
  Terminate(id, /*run_hook=*/false);
  // The EC2 health check sees it go; the group replaces it.
  if (!deleting_) ScheduleActivity(Sample(opts_.reaction_delay, activity_rng_));
}

std::vector<const Instance*> AutoScalingGroup::Describe() {
  const std::vector<Instance*>& order = order_.Members();
  std::vector<const Instance*> out(order.begin(), order.end());
  if (out.size() > 1 && fault_rng_.Bernoulli(opts_.reorder_probability)) {
    rec_->Fault(loop_->Now(), pool_, pool_, "describe.reordered");
    for (size_t i = out.size() - 1; i > 0; --i) std::swap(out[i], out[fault_rng_.Below(i + 1)]);
  }
  return out;
}

const Instance* AutoScalingGroup::Find(const std::string& id) const {
  auto it = instances_.find(id);
  return it == instances_.end() ? nullptr : &it->second;
}

void AutoScalingGroup::ScheduleActivity(Duration delay) {
  if (activity_) return;  // one activity at a time; it reads desired when it runs
  activity_ = loop_->After(delay, [this] {
    activity_.reset();
    Activity();
  });
}

// A scaling activity: launch or terminate toward the desired capacity.
void AutoScalingGroup::Activity() {
  if (!exists_) return;
  if (live_ > desired_) return ScaleIn(live_ - desired_);
  for (int32_t i = live_; i < desired_; ++i) {
    if (!LaunchOne()) {
      // No zone had capacity, or the account ran out of RunInstances tokens:
      // the activity fails and the group retries later.
      ScheduleActivity(Sample(opts_.launch_retry, activity_rng_));
      return;
    }
  }
}

// "Launch in the Availability Zone with the fewest instances; if the attempt
// fails, try another zone until it succeeds" (auto-scaling-benefits.md).
bool AutoScalingGroup::LaunchOne() {
  std::vector<std::string> failed;
  while (std::optional<std::string> zone = PickZone(failed)) {
    auto cap = opts_.capacity.find(*zone);
    const bool full = cap != opts_.capacity.end() && zone_count_[*zone] >= cap->second;
    if (full || fault_rng_.Bernoulli(opts_.ice_probability)) {
      rec_->Fault(loop_->Now(), pool_, *zone, "InsufficientInstanceCapacity");
      failed.push_back(*zone);
      continue;
    }
    // The group launches on the account's behalf and, we assume (docs/reference/providers.md
    // §1.3 leaves it unverified), draws RunInstances' resource bucket: an
    // empty bucket fails the whole activity, whatever the zone.
    if (throttle_ != nullptr && !throttle_->TakeInstanceLaunch(loop_->Now())) {
      rec_->Fault(loop_->Now(), pool_, pool_, "RunInstances.RequestLimitExceeded");
      return false;
    }
    Launch(*zone);
    return true;
  }
  return false;
}

std::optional<std::string> AutoScalingGroup::PickZone(
    const std::vector<std::string>& failed) const {
  std::optional<std::string> best;
  int32_t best_n = 0;
  for (const std::string& z : opts_.zones) {
    if (std::find(failed.begin(), failed.end(), z) != failed.end()) continue;
    auto it = zone_live_.find(z);
    const int32_t n = it == zone_live_.end() ? 0 : it->second;
    if (!best || n < best_n) best = z, best_n = n;
  }
  return best;
}

void AutoScalingGroup::Launch(const std::string& zone) {
  const std::string id = InstanceId(opts_.id_block, ++next_id_);
  Instance inst{id,
                zone,
                State::kPending,
                lt_version_,
                kubelet_version_,
                loop_->Now(),
                fault_rng_.Bernoulli(opts_.missing_az),
                next_id_};
  if (inst.missing_az) rec_->Fault(loop_->Now(), pool_, id, "providerID.missingAZ");
  // Pinned: made once per instance, copied into every providerIDList.
  inst.list_entry = SharedString::Pinned(ProviderIdOf(inst, !inst.missing_az));
  Instance& stored = instances_[id] = inst;
  order_.Append(stored.seq, &stored);
  ++zone_count_[zone];
  ++zone_live_[zone];
  ++live_;
  rec_->Change(loop_->Now(), "Instance", id, "state", "", "Pending", pool_);
  loop_->After(Sample(opts_.launch_delay, launch_rng_), [this, id] { OnRunning(id); });
}

void AutoScalingGroup::ScaleIn(int32_t count) {
  std::vector<Candidate> candidates;
  for (const Instance* p : order_.Members()) {
    const Instance& inst = *p;
    if (Leaving(inst.state)) continue;
    candidates.push_back({inst.id, inst.zone, inst.launch_template_version, inst.launched_at});
  }
  for (const std::string& id : ChooseVictims(candidates, count, loop_->Now(), &policy_rng_)) {
    Terminate(id);
  }
}

// One batch of the refresh: terminate, and let the group launch replacements
// with the latest template; the next batch waits for their warmup.
void AutoScalingGroup::RefreshStep() {
  if (!refresh_ || refresh_->status != RefreshStatus::kInProgress) return;
  std::vector<std::string>& left = refresh_->to_replace;
  std::erase_if(left, [this](const std::string& id) { return !instances_.count(id); });
  if (left.empty()) {
    refresh_.reset();  // Successful
    return;
  }
  const int32_t batch = std::min<int32_t>(RefreshBatchSize(desired_, opts_.min_healthy_percentage),
                                          static_cast<int32_t>(left.size()));
  for (int32_t i = 0; i < batch; ++i) Terminate(left[static_cast<size_t>(i)]);
  left.erase(left.begin(), left.begin() + batch);
  refresh_->warming = batch;
  ScheduleActivity(Sample(opts_.reaction_delay, activity_rng_));
}

// A replacement's warmup ran out; the batch's last one starts the next batch.
// The timers of a cancelled refresh count toward no later one.
void AutoScalingGroup::EndWarmup(uint64_t refresh_id) {
  if (!refresh_ || refresh_->id != refresh_id) return;
  if (--refresh_->warming <= 0) RefreshStep();
}

// "After the cancellation is complete, the status of the instance refresh is
// set to Cancelled" (cancel-instance-refresh.html); it completes once the
// in-flight launches and terminations have (API_CancelInstanceRefresh,
// WaitForTransitioningInstances). How long AWS then takes to report it is
// not published: the group's reaction delay stands in (§1.2).
void AutoScalingGroup::MaybeEndCancel() {
  if (!refresh_ || refresh_->status != RefreshStatus::kCancelling || refresh_->cancel_ending)
    return;
  if (static_cast<int32_t>(instances_.size()) > in_service_) return;
  refresh_->cancel_ending = true;
  loop_->After(Sample(opts_.reaction_delay, refresh_rng_), [this, id = refresh_->id] {
    if (refresh_ && refresh_->id == id) refresh_.reset();  // Cancelled
  });
}

void AutoScalingGroup::Forget(std::map<std::string, Instance>::iterator it) {
  const Instance& inst = it->second;
  --zone_count_[inst.zone];
  if (!Leaving(inst.state)) --zone_live_[inst.zone], --live_;
  if (inst.state == State::kInService) --in_service_;
  order_.Remove(inst.seq);
  instances_.erase(it);
}

}  // namespace mpsim::asg
