// A simulated EKS managed node group (docs/reference/aws-managed.md §2): the
// EKS API's statuses, CreateNodegroup (CREATING -> ACTIVE once its instances'
// Nodes are Ready), UpdateNodegroupConfig (desired size, min, max; UPDATING
// while the group's Auto Scaling Group launches or terminates),
// UpdateNodegroupVersion one minor at a time with the four update phases
// (setup, scale up, upgrade by maxUnavailable, scale down), DeleteNodegroup,
// the instances of its Auto Scaling Group as DescribeAutoScalingGroups
// lists them, and the group's health issue while its ASG fails to launch
// (InsufficientInstanceCapacity in every zone tried, §2.7).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/status.h"
#include "models/common/launch_order.h"
#include "models/eks/eks_options.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"
#include "util/shared_string.h"

namespace mpsim::eks {

// SDK types.NodegroupStatus (§2.1); kAbsent: DescribeNodegroup answers
// ResourceNotFoundException.
enum class NodegroupStatus {
  kAbsent,
  kCreating,
  kActive,
  kUpdating,
  kDeleting,
  kCreateFailed,
  kDeleteFailed,
  kDegraded,
};
const char* NodegroupStatusName(NodegroupStatus s);

// The Auto Scaling Group's lifecycle states the model uses.
enum class InstanceState { kPending, kInService, kTerminating };

struct Instance {
  std::string id;    // i-<17 hex digits>
  std::string zone;  // its subnet's zone
  InstanceState state = InstanceState::kPending;
  std::string version;       // the kubelet version of its AMI
  int generation = 0;        // the node group's version step it was launched on
  uint64_t seq = 0;          // launch order, which is the API order
  SharedString provider_id;  // aws:///<az>/<id>, made once at launch
};

// "aws:///<az>/<id>" (§1.3, CAPA ng:615-620).
std::string ProviderIdOf(const std::string& zone, const std::string& id);

// nodegroup.scalingConfig: CAPA sends min and max only with maxSize (§1.5).
struct ScalingConfig {
  int32_t desired = 1;
  std::optional<int32_t> min_size, max_size;
  bool operator==(const ScalingConfig&) const = default;
};

// "1.30" from "v1.30.2" (CAPA compares major.minor only, §1.6).
std::string MinorOf(const std::string& version);
// The next minor version: "1.31" from "1.30".
std::string NextMinor(const std::string& minor);
// -1, 0 or 1 as a's major.minor is below, equal to or above b's.
int CompareMinor(const std::string& a, const std::string& b);

// The update's surge (§2.2 scale-up phase): the larger of twice the zones
// the group has nodes in and maxUnavailable.
int32_t SurgeOf(int32_t zones_with_nodes, int32_t max_unavailable);
// updateConfig's parallelism for a group of `size` nodes: the count, or the
// percentage of the size rounded down, at least 1 (assumed, §2.2).
int32_t MaxUnavailableOf(int32_t max_unavailable, int32_t percentage, int32_t size);

class NodeGroup {
 public:
  NodeGroup(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
            EksOptions opts, uint64_t seed);
  NodeGroup(const NodeGroup&) = delete;
  NodeGroup& operator=(const NodeGroup&) = delete;

  NodegroupStatus status() const { return status_; }
  const std::string& version() const { return minor_; }  // "1.30"
  const ScalingConfig& scaling() const { return scaling_; }
  const EksOptions& options() const { return opts_; }
  // The node group names its Auto Scaling Group once the create has made it.
  bool has_asg() const { return asg_made_; }
  // health.issues[].code: "AsgInstanceLaunchFailures" from a failed launch
  // until the ASG reaches its desired count; "" when healthy.
  const std::string& health_issue() const { return health_; }

  // CreateNodegroup; InvalidParameterException when the scaling config is
  // inconsistent or above the quota, ResourceInUseException if it exists.
  // `kubelet` is the AMI's kubelet version for `minor`.
  Status Create(const ScalingConfig& scaling, const std::string& minor, const std::string& kubelet);
  // UpdateNodegroupConfig with a scaling config.
  Status UpdateConfig(const ScalingConfig& scaling);
  // UpdateNodegroupVersion to `minor`, which must be the next one.
  Status UpdateVersion(const std::string& minor, const std::string& kubelet);
  Status Delete();
  // DescribeAutoScalingGroups of the group's ASG: every instance, any state,
  // in API order.
  std::vector<const Instance*> Describe() const;
  // The cloud takes an instance away; the ASG replaces it.
  void Kill(const std::string& id);
  // In-service instances, for KillInstances.
  std::vector<std::string> InService() const;

 private:
  enum class Phase { kNone, kCreate, kScale, kSetup, kScaleUp, kUpgrade, kScaleDown, kDelete };
  Status CheckScaling(const ScalingConfig& s) const;
  Status CheckIdle(const char* op) const;
  void SetStatus(NodegroupStatus s);
  // The ASG's desired count and the activity that moves the instances to it.
  void SetDesired(int32_t desired);
  void ScheduleActivity(Duration delay);
  void Activity();
  bool LaunchOne();
  void Launch(const std::string& zone);
  void SetHealth(const char* issue);
  void OnRunning(const std::string& id);
  void Terminate(const std::string& id);
  void Remove(const std::string& id);
  // The zone with the fewest live instances, not in `failed`.
  std::optional<std::string> PickZone(const std::vector<std::string>& failed) const;
  bool ZoneFull(const std::string& zone) const;
  std::string ScaleInVictim() const;
  // The operation's progress, checked every kTick while one runs.
  void Tick();
  void Step();
  bool AllLiveReady() const;
  bool NodeReady(const std::string& id) const;
  void UpgradeStep();
  void Settle();
  // updateConfig's parallelism for the group's current size.
  int32_t UpdateParallelism() const;

  // How often the simulated EKS control plane checks an operation's
  // progress (mpsim choice: EKS's internal cadence is not published).
  static constexpr Duration kTick = 5 * kSecond;
  // Cordoned nodes wait this long before termination (§2.2 upgrade phase).
  static constexpr Duration kCordonWait = 60 * kSecond;

  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  EksOptions opts_;
  Rng op_rng_, launch_rng_, delete_rng_, id_rng_, pick_rng_, fault_rng_;
  NodegroupStatus status_ = NodegroupStatus::kAbsent;
  std::string health_;
  Phase phase_ = Phase::kNone;
  std::string minor_;         // the version DescribeNodegroup shows
  std::string target_minor_;  // a version update's, shown once it is done
  std::string kubelet_;       // new launches' kubelet version
  int generation_ = 0;        // bumped by each version update
  ScalingConfig scaling_;
  bool asg_made_ = false;
  int32_t desired_ = 0;          // the ASG's desired capacity
  int32_t restore_desired_ = 0;  // the update's pre-surge size
  int32_t surge_ = 0;            // the update's scale-up
  bool ticking_ = false;
  bool settling_ = false;
  uint64_t operations_ = 0;   // deletes started: a settle timer of an earlier operation is void
  bool cordon_wait_ = false;  // an upgrade batch is cordoned and waiting
  std::optional<EventId> activity_;
  uint64_t next_seq_ = 0;
  std::map<std::string, Instance> instances_;
  LaunchOrder<Instance> order_;
  std::map<std::string, int32_t> zone_count_, zone_live_;
  int32_t live_ = 0;
};

}  // namespace mpsim::eks
