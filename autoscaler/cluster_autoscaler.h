// The Kubernetes cluster autoscaler (1.36) with its clusterapi provider, as
// a loop on simulated time (docs/reference/autoscaler.md §2.2). Each loop:
// (1) scale-ups whose nodes have not all started within the maximum
// provision time fail: the group is backed off and the increase reverted;
// (2) a group whose size has differed from its instances for as long is
// brought down to them; (3) pending pods that no existing node, nor any
// node a live scale-up is bringing, can take make the expander's choice of
// one group grow by the nodes a binpacking estimate gives; (4) nodes
// unneeded (at most half used, their pods movable elsewhere) for long
// enough are tainted, drained and deleted through the provider, outside the
// cool-down after a scale-up. Loops run every scan interval, and at once
// after one that scaled up or began a deletion, or when a pod is found
// unschedulable (frequent loops, §2.1).
//
// Each decision is a timeline row `Autoscaler,<pool>,<decision>: <reason>`
// whose from and to are the pool's replicas.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "autoscaler/expander.h"
#include "autoscaler/node_group.h"
#include "sim/api_server.h"
#include "sim/event_loop.h"
#include "sim/pod_scheduler.h"
#include "sim/random.h"
#include "sim/recorder.h"

namespace mpsim::autoscaler {

struct AutoscalerOptions {
  Duration scan_interval = 0;
  Duration max_node_provision_time = 0;
  Duration scale_down_unneeded_time = 0;
  Duration scale_down_delay_after_add = 0;
  Expander expander = Expander::kLeastWaste;
  std::string ns;
  uint64_t seed = 1;
};

// What the autoscaler did to one pool.
struct GroupStats {
  uint64_t scale_ups = 0;
  uint64_t scale_downs = 0;
  int32_t max_replicas_seen = 0;
};

class ClusterAutoscaler {
 public:
  ClusterAutoscaler(EventLoop* loop, ApiServer* mgmt, ApiServer* workload, PodScheduler* pods,
                    Recorder* rec, AutoscalerOptions opts);
  ClusterAutoscaler(const ClusterAutoscaler&) = delete;
  ClusterAutoscaler& operator=(const ClusterAutoscaler&) = delete;

  // Every pool's stats, by name; max_replicas_seen counts every pool.
  const std::map<std::string, GroupStats>& stats() const { return stats_; }

 private:
  struct ScaleUpRequest {
    Time at = 0;
    int32_t increase = 0;
  };
  struct Backoff {
    Time until = 0;
    Duration duration = 0;
    Time last_failure = 0;
  };
  struct GroupState {
    std::optional<ScaleUpRequest> scale_up;
    std::optional<Backoff> backoff;
    std::optional<Time> size_differs_since;
  };
  enum class Acted { kNothing, kScaledUp, kBeganDeletion };

  void Loop();
  void LoopAt(Time at);
  Acted RunOnce();
  void TimeOutScaleUps(const std::vector<NodeGroup>& groups);
  bool FixNodeGroupSizes(const std::vector<NodeGroup>& groups);
  bool ScaleUp(const std::vector<NodeGroup>& groups);
  bool ScaleDown(const std::vector<NodeGroup>& groups, bool cooldown);
  void UpdateUnneeded(const std::vector<NodeGroup>& groups);
  bool Movable(const std::string& node, const std::set<std::string>& leaving) const;
  void StartDeletion(const NodeGroup& group, const std::string& node);
  void FinishDeletion(const std::string& node);
  void SetTaint(const std::string& node, bool on);
  void Fail(const std::string& group);
  bool BackedOff(const std::string& group) const;
  int Started(const NodeGroup& group) const;
  int Upcoming(const NodeGroup& group) const;
  void Decide(const std::string& group, const std::string& decision, int32_t from, int32_t to);

  EventLoop* loop_;
  ApiServer* mgmt_;
  ApiServer* workload_;
  PodScheduler* pods_;
  Recorder* rec_;
  AutoscalerOptions opts_;
  Rng rng_;
  std::map<std::string, GroupState> state_;
  std::map<std::string, Time> unneeded_since_;   // node -> when it was first unneeded
  std::map<std::string, std::string> deleting_;  // node -> its group, while it goes
  std::set<std::string> draining_;               // of those, the ones with pods
  std::optional<Time> last_scale_up_;
  bool planned_ = false;
  Time next_loop_ = 0;
  uint64_t loop_token_ = 0;  // a loop planned under an older token does not run
  std::map<std::string, GroupStats> stats_;
};

}  // namespace mpsim::autoscaler
