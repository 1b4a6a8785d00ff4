// One simulated EC2 Auto Scaling Group (docs/reference/providers.md §1.1-§1.3): desired
// capacity carried out by scaling activities that balance zones and may fail
// with InsufficientInstanceCapacity, instances Pending (-> Pending:Wait) ->
// InService -> Terminating (-> Terminating:Wait) -> Terminated, spot
// interruptions, the Default termination policy, instance refresh and its
// cancellation.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/asg/asg_options.h"
#include "models/asg/instance_refresh.h"
#include "models/common/launch_order.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"
#include "util/shared_string.h"

namespace mpsim::asg {

// The LifecycleState values CAPA's groups can reach (docs/reference/providers.md §1.1).
enum class State {
  kPending,
  kPendingWait,
  kPendingProceed,
  kInService,
  kTerminating,
  kTerminatingWait,
  kTerminatingProceed,
};
const char* StateName(State s);
// Terminating, Terminating:Wait or Terminating:Proceed: on its way out.
bool Leaving(State s);

// EC2 reclaims a spot instance two minutes after its interruption notice
// (docs/reference/providers.md §1.3, §4.1).
inline constexpr Duration kSpotNotice = 120 * kSecond;

struct Instance {
  std::string id;    // i-0000000000000001a
  std::string zone;  // us-east-1a
  State state = State::kPending;
  int launch_template_version = 1;
  std::string kubelet_version;
  Time launched_at = 0;
  bool missing_az = false;  // its list entry lacks the zone (CAPA #3742 fault)
  uint64_t seq = 0;         // launch order, which is the API order
  // What CAPA lists for it, made once at launch: ProviderIdOf depends only
  // on the zone, the id and the fault, and every list version shares it.
  SharedString list_entry;
};

// "aws:///<az>/<id>" (docs/reference/providers.md §1.5): the providerID the cloud provider
// puts on the instance's Node and CAPA on its AWSMachine; CAPA's
// providerIDList entry drops the zone under the missing_az fault.
inline std::string ProviderIdOf(const Instance& inst, bool with_zone = true) {
  constexpr std::string_view kScheme = "aws:///";
  std::string out;
  out.reserve(kScheme.size() + inst.zone.size() + 1 + inst.id.size());
  out.append(kScheme);
  if (with_zone) out.append(inst.zone);
  return out.append("/").append(inst.id);
}

class AutoScalingGroup {
 public:
  AutoScalingGroup(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
                   AsgOptions opts, uint64_t seed);
  AutoScalingGroup(const AutoScalingGroup&) = delete;
  AutoScalingGroup& operator=(const AutoScalingGroup&) = delete;

  bool exists() const { return exists_; }
  bool deleting() const { return deleting_; }
  int32_t desired() const { return desired_; }
  int launch_template_version() const { return lt_version_; }
  // An instance refresh is unfinished: InProgress or Cancelling.
  bool refreshing() const { return refresh_.has_value(); }
  const AsgOptions& options() const { return opts_; }
  // The account's API buckets, shared by every group of the run; nullptr
  // (the default) when the scenario leaves apiThrottling off.
  void set_throttle(AwsThrottle* throttle) { throttle_ = throttle; }

  // CreateAutoScalingGroup with DesiredCapacity and the template's version.
  void Create(int32_t desired, const std::string& kubelet_version);
  // UpdateAutoScalingGroup{DesiredCapacity}.
  void SetDesired(int32_t desired);
  // CreateLaunchTemplateVersion: new launches use it ("$Latest"); a
  // `LaunchTemplate <pool> latestVersion` row.
  void NewLaunchTemplateVersion(const std::string& kubelet_version);
  // StartInstanceRefresh: replaces every instance (SkipMatching unset). False
  // if one is unfinished, Cancelling included (InstanceRefreshInProgress).
  bool StartInstanceRefresh();
  // DescribeInstanceRefreshes, as CAPA reads it: the status of the unfinished
  // refresh, if there is one.
  std::optional<RefreshStatus> UnfinishedRefresh() const;
  // CancelInstanceRefresh with WaitForTransitioningInstances at its default
  // (docs/reference/providers.md §1.2): no further batch starts; the refresh
  // is Cancelling until no instance of the group is launching or terminating,
  // then Cancelled one reactionDelay later. Replacements already made stay.
  // False if none is InProgress (ActiveInstanceRefreshNotFound).
  bool CancelInstanceRefresh();
  // DeleteAutoScalingGroup(ForceDelete): terminates everything, then is gone.
  void Delete();
  // The cloud takes `id` away (spot reclaim, hardware failure).
  void Kill(const std::string& id);
  // ec2:TerminateInstances on a member, outside the group's API: no hook,
  // desired capacity unchanged, so the group launches a replacement.
  void TerminateInstance(const std::string& id);

  // DescribeAutoScalingGroups: every instance, any lifecycle state, in API
  // order (launch order, unless the reorder fault shuffles it).
  std::vector<const Instance*> Describe();
  // DescribeInstances for one ID: the member, in any lifecycle state, or
  // nullptr once it has left the group (terminated and gone).
  const Instance* Find(const std::string& id) const;
  size_t size() const { return instances_.size(); }

 private:
  struct Refresh {
    uint64_t id = 0;  // tells a refresh's timers from a later one's
    // The template version it started on: an instance on this one or a later
    // one (a token rotation makes versions while a refresh runs) replaces.
    int launch_template_version = 0;
    RefreshStatus status = RefreshStatus::kInProgress;
    std::vector<std::string> to_replace;  // instances present when it started
    int32_t warming = 0;                  // replacements not yet InService + warmup
    bool cancel_ending = false;           // Cancelled is scheduled
  };
  void ScheduleActivity(Duration delay);
  void Activity();
  bool LaunchOne();
  // The instance's lifecycle (asg_lifecycle.cc).
  void OnRunning(const std::string& id);
  void EndLaunchWait(const std::string& id, HookResult result);
  void ScheduleSpotNotice(const std::string& id);
  void SpotReclaim(const std::string& id);
  void Terminate(const std::string& id, bool run_hook = true);
  void EndTerminateWait(const std::string& id);
  void Remove(const std::string& id);
  void OnInService(Instance* inst);
  void Boot(const Instance& inst);
  std::optional<std::string> PickZone(const std::vector<std::string>& failed) const;
  void Launch(const std::string& zone);
  void ScaleIn(int32_t count);
  void RefreshStep();
  void EndWarmup(uint64_t refresh_id);
  // Cancelling ends once nothing is launching or terminating.
  void MaybeEndCancel();
  void SetState(Instance* inst, State s);
  void Forget(std::map<std::string, Instance>::iterator it);

  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  AsgOptions opts_;
  AwsThrottle* throttle_ = nullptr;
  Rng launch_rng_, delete_rng_, activity_rng_, fault_rng_, policy_rng_, hook_rng_, spot_rng_,
      refresh_rng_;
  bool exists_ = false;
  bool deleting_ = false;
  int32_t desired_ = 0;
  int lt_version_ = 1;
  std::string kubelet_version_;
  uint64_t next_id_ = 0;
  std::optional<EventId> activity_;
  std::map<std::string, Instance> instances_;
  // API order of instances_ (launch order); a map node's address is stable
  // until erased.
  LaunchOrder<Instance> order_;
  // Per zone: instances that exist (capacity) and that are not terminating
  // (balance), kept so a launch does not scan the group.
  std::map<std::string, int32_t> zone_count_, zone_live_;
  int32_t live_ = 0;
  // Instances InService; every other member is launching or terminating.
  int32_t in_service_ = 0;
  std::optional<Refresh> refresh_;
  uint64_t refreshes_started_ = 0;
};

}  // namespace mpsim::asg
