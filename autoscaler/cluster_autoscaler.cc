#include "autoscaler/cluster_autoscaler.h"

#include <algorithm>
#include <utility>

#include "autoscaler/binpacking.h"
#include "sim/duration.h"

namespace mpsim::autoscaler {
namespace {

// docs/reference/autoscaler.md §1 (flags and their defaults).
constexpr double kUtilizationThreshold = 0.5;             // --scale-down-utilization-threshold
constexpr Duration kInitialBackoff = 5 * kMinute;         // --initial-node-group-backoff-duration
constexpr Duration kMaxBackoff = 30 * kMinute;            // --max-node-group-backoff-duration
constexpr Duration kBackoffReset = 3 * kHour;             // --node-group-backoff-reset-timeout
constexpr Duration kDeleteDelayAfterTaint = 5 * kSecond;  // --node-delete-delay-after-taint
constexpr Duration kNewPodScaleUpGrace = 2 * kSecond;     // §2.2 step 13
constexpr size_t kMaxScaleDownParallelism = 10;           // --max-scale-down-parallelism
constexpr size_t kMaxDrainParallelism = 1;                // --max-drain-parallelism

// The taint on a node the autoscaler removes, so that nothing new lands
// there (docs/reference/autoscaler.md §5.5).
constexpr const char* kToBeDeletedTaint = "ToBeDeletedByClusterAutoscaler";

double Utilization(const NodeRoom& n) {
  auto part = [](int64_t used, int64_t offered) {
    return offered <= 0 ? 1.0 : static_cast<double>(used) / static_cast<double>(offered);
  };
  return std::max(part(n.requested.cpu_milli, n.allocatable.cpu_milli),
                  part(n.requested.memory_bytes, n.allocatable.memory_bytes));
}

Room FreeRoom(const NodeRoom& n) {
  return Room{{n.allocatable.cpu_milli - n.requested.cpu_milli,
               n.allocatable.memory_bytes - n.requested.memory_bytes,
               n.allocatable.pods - n.requested.pods}};
}

}  // namespace

ClusterAutoscaler::ClusterAutoscaler(EventLoop* loop, ApiServer* mgmt, ApiServer* workload,
                                     PodScheduler* pods, Recorder* rec, AutoscalerOptions opts)
    : loop_(loop),
      mgmt_(mgmt),
      workload_(workload),
      pods_(pods),
      rec_(rec),
      opts_(std::move(opts)),
      rng_(StreamFor(opts_.seed, "autoscaler/expander")) {
  mgmt_->Store<MachinePool>().Watch([this](auto type, const auto&, const auto& mp) {
    if (type == WatchEvent<MachinePool>::Type::kDeleted) return;
    GroupStats& s = stats_[std::string(mp->meta.name)];
    s.max_replicas_seen = std::max(s.max_replicas_seen, mp->spec.replicas.value_or(0));
  });
  pods_->OnUnschedulable([this] { LoopAt(loop_->Now()); });
  LoopAt(loop_->Now() + opts_.scan_interval);
}

// Moves the next loop to `at` if that is sooner than the one planned.
void ClusterAutoscaler::LoopAt(Time at) {
  if (planned_ && next_loop_ <= at) return;
  planned_ = true;
  next_loop_ = at;
  const uint64_t token = ++loop_token_;
  loop_->At(at, [this, token] {
    if (token == loop_token_) Loop();
  });
}

void ClusterAutoscaler::Loop() {
  planned_ = false;
  const Acted acted = RunOnce();
  LoopAt(acted == Acted::kNothing ? loop_->Now() + opts_.scan_interval : loop_->Now());
}

ClusterAutoscaler::Acted ClusterAutoscaler::RunOnce() {
  const std::vector<NodeGroup> groups = ListNodeGroups(mgmt_, workload_, opts_.ns);
  TimeOutScaleUps(groups);
  if (FixNodeGroupSizes(groups)) return Acted::kNothing;
  const std::vector<const Pod*> pending = pods_->Pending();
  const bool all_new =
      !pending.empty() && std::all_of(pending.begin(), pending.end(), [&](const Pod* p) {
        return loop_->Now() - p->created < kNewPodScaleUpGrace;
      });
  if (all_new) return Acted::kNothing;
  const bool scaled_up = ScaleUp(groups);
  const bool cooldown = scaled_up || (last_scale_up_ && loop_->Now() - *last_scale_up_ <
                                                            opts_.scale_down_delay_after_add);
  const bool deleting = ScaleDown(groups, cooldown);
  if (scaled_up) return Acted::kScaledUp;
  return deleting ? Acted::kBeganDeletion : Acted::kNothing;
}

// Registered nodes that pods can land on: Ready, without the taints that
// keep pods off. A node still tainted uninitialized counts as not started.
int ClusterAutoscaler::Started(const NodeGroup& group) const {
  int started = 0;
  for (const std::string& node : group.nodes) {
    auto it = pods_->nodes().find(node);
    if (it != pods_->nodes().end() && it->second.schedulable) ++started;
  }
  return started;
}

// A group's nodes still to come: only while a scale-up of it is live and it
// is not backed off (docs/reference/autoscaler.md §3.2).
int ClusterAutoscaler::Upcoming(const NodeGroup& group) const {
  auto st = state_.find(group.name);
  if (st == state_.end() || !st->second.scale_up || BackedOff(group.name)) return 0;
  return std::max(0, group.target - Started(group));
}

bool ClusterAutoscaler::BackedOff(const std::string& group) const {
  auto st = state_.find(group);
  return st != state_.end() && st->second.backoff && st->second.backoff->until > loop_->Now();
}

void ClusterAutoscaler::Decide(const std::string& group, const std::string& decision, int32_t from,
                               int32_t to) {
  // Appended even when the replicas stay: a refused revert or a failed
  // deletion is a decision too.
  rec_->Decision({loop_->Now(), "Autoscaler", group, decision, std::to_string(from),
                  std::to_string(to), group});
}

// Exponential backoff of a group: 5 min, doubling after each failure that
// comes once the previous window is over, to 30 min; forgotten 3 h after
// the last failure (docs/reference/autoscaler.md §4.3).
void ClusterAutoscaler::Fail(const std::string& group) {
  const Time now = loop_->Now();
  std::optional<Backoff>& b = state_[group].backoff;
  if (b && now - b->last_failure > kBackoffReset) b.reset();
  if (!b) {
    b = Backoff{now + kInitialBackoff, kInitialBackoff, now};
    return;
  }
  if (now >= b->until) b->duration = std::min(2 * b->duration, kMaxBackoff);
  b->until = now + b->duration;
  b->last_failure = now;
}

// §4.1: a scale-up whose group has no upcoming nodes left succeeded; one
// past its deadline timed out: the group is backed off and, as since 1.36,
// the increase reverted, which the clusterapi provider refuses below the
// instances the pool has (§6.4).
void ClusterAutoscaler::TimeOutScaleUps(const std::vector<NodeGroup>& groups) {
  for (const NodeGroup& g : groups) {
    GroupState& st = state_[g.name];
    if (!st.scale_up) continue;
    const int missing = g.target - Started(g);
    if (missing <= 0) {
      st.scale_up.reset();
      continue;
    }
    if (loop_->Now() - st.scale_up->at < opts_.max_node_provision_time) continue;
    const int32_t reverted = g.target - st.scale_up->increase;
    st.scale_up.reset();
    Fail(g.name);
    const std::string why = std::to_string(missing) + " nodes not started within " +
                            FormatDuration(opts_.max_node_provision_time) + ", backoff " +
                            FormatDuration(st.backoff->duration);
    if (reverted < g.instances) {
      Decide(g.name,
             "scaleUpTimedOut: " + why + "; revert refused below the pool's " +
                 std::to_string(g.instances) + " instances",
             g.target, g.target);
      continue;
    }
    Decide(g.name, "scaleUpTimedOut: " + why, g.target, reverted);
    SetTargetSize(mgmt_, opts_.ns, g.name, reverted);
  }
}

// §2.2 step 10: a target above the pool's instances for longer than the
// provision time comes down to them. True if any did (the loop ends).
bool ClusterAutoscaler::FixNodeGroupSizes(const std::vector<NodeGroup>& groups) {
  bool fixed = false;
  for (const NodeGroup& g : groups) {
    std::optional<Time>& since = state_[g.name].size_differs_since;
    if (g.target <= g.instances) {
      since.reset();
      continue;
    }
    if (!since) since = loop_->Now();
    if (loop_->Now() - *since <= opts_.max_node_provision_time) continue;
    Decide(g.name,
           "fixNodeGroupSize: " + std::to_string(g.target - g.instances) +
               " instances missing for over " + FormatDuration(opts_.max_node_provision_time),
           g.target, g.instances);
    SetTargetSize(mgmt_, opts_.ns, g.name, g.instances);
    since.reset();
    fixed = true;
  }
  return fixed;
}

bool ClusterAutoscaler::ScaleUp(const std::vector<NodeGroup>& groups) {
  std::vector<Resources> requests;
  for (const Pod* p : pods_->Pending()) requests.push_back(p->request);
  if (requests.empty()) return false;
  std::vector<Room> coming;  // pods that a live scale-up's nodes will take ask for nothing more
  for (const NodeGroup& g : groups) {
    for (int i = Upcoming(g); i > 0; --i) coming.push_back(Room{g.node_template});
  }
  const std::vector<Resources> left = FirstFit(requests, &coming);
  if (left.empty()) return false;
  std::vector<ScaleUpOption> options;
  for (const NodeGroup& g : groups) {
    if (BackedOff(g.name) || g.target >= g.max) continue;
    const Estimate e = EstimateNodes(left, g.node_template, g.max - g.target);
    if (e.pods > 0) options.push_back({g.name, e.nodes, e.pods, g.node_template, e.requested});
  }
  if (options.empty()) return false;
  const ScaleUpOption& best = BestOption(opts_.expander, options, &rng_);
  const NodeGroup& g = *std::find_if(groups.begin(), groups.end(),
                                     [&](const NodeGroup& x) { return x.name == best.group; });
  const int32_t target = g.target + best.nodes;
  Decide(g.name,
         "scaleUp: " + std::to_string(best.pods) + " of " + std::to_string(left.size()) +
             " pending pods",
         g.target, target);
  SetTargetSize(mgmt_, opts_.ns, g.name, target);
  std::optional<ScaleUpRequest>& r = state_[g.name].scale_up;
  r = ScaleUpRequest{loop_->Now(), (r ? r->increase : 0) + best.nodes};
  ++stats_[g.name].scale_ups;
  last_scale_up_ = loop_->Now();
  return true;
}

// §5: the unneeded list is kept up to date even in cool-down; outside it,
// nodes unneeded long enough go, at most 10 at a time of which 1 drained,
// counting deletions still under way, never taking a group to its min.
bool ClusterAutoscaler::ScaleDown(const std::vector<NodeGroup>& groups, bool cooldown) {
  UpdateUnneeded(groups);
  if (cooldown) return false;
  bool began = false;
  for (const NodeGroup& g : groups) {
    int32_t size = g.target;
    for (const auto& [node, group] : deleting_) size -= group == g.name ? 1 : 0;
    for (const std::string& node : g.nodes) {
      auto since = unneeded_since_.find(node);
      if (since == unneeded_since_.end() || deleting_.count(node) ||
          loop_->Now() - since->second <= opts_.scale_down_unneeded_time || size <= g.min ||
          deleting_.size() >= kMaxScaleDownParallelism) {
        continue;
      }
      const bool drain = !pods_->nodes().at(node).pods.empty();
      if (drain && draining_.size() >= kMaxDrainParallelism) continue;
      --size;
      StartDeletion(g, node);
      began = true;
    }
  }
  return began;
}

// §5.1: a node is unneeded while its utilization is at most the threshold
// and each of its pods fits on another node; it keeps the time it first was.
void ClusterAutoscaler::UpdateUnneeded(const std::vector<NodeGroup>& groups) {
  std::map<std::string, Time> next;
  std::set<std::string> leaving;
  for (const NodeGroup& g : groups) {
    for (const std::string& node : g.nodes) {
      auto it = pods_->nodes().find(node);
      if (deleting_.count(node) && unneeded_since_.count(node)) {
        next[node] = unneeded_since_[node];  // a node being deleted keeps its timer
        continue;
      }
      if (it == pods_->nodes().end() || !it->second.schedulable) continue;
      if (Utilization(it->second) > kUtilizationThreshold || !Movable(node, leaving)) continue;
      leaving.insert(node);
      auto was = unneeded_since_.find(node);
      next[node] = was == unneeded_since_.end() ? loop_->Now() : was->second;
    }
  }
  unneeded_since_ = std::move(next);
}

// Whether every pod of `node` fits, first fit, on the schedulable nodes
// that are neither it nor leaving.
bool ClusterAutoscaler::Movable(const std::string& node,
                                const std::set<std::string>& leaving) const {
  std::vector<Resources> moving;
  for (uint64_t id : pods_->nodes().at(node).pods) moving.push_back(pods_->pods().at(id).request);
  if (moving.empty()) return true;
  std::vector<Room> rooms;
  for (const auto& [name, n] : pods_->nodes()) {
    if (name != node && n.schedulable && !leaving.count(name) && !deleting_.count(name)) {
      rooms.push_back(FreeRoom(n));
    }
  }
  return FirstFit(moving, &rooms).empty();
}

// §5.5: taint, wait, drain, then DeleteNodes through the provider. A failed
// DeleteNodes takes the taint off again and starts no cool-down; the node
// stays unneeded and is tried again.
void ClusterAutoscaler::StartDeletion(const NodeGroup& group, const std::string& node) {
  const bool drain = !pods_->nodes().at(node).pods.empty();
  deleting_[node] = group.name;
  if (drain) draining_.insert(node);
  SetTaint(node, true);
  const Duration unneeded = loop_->Now() - unneeded_since_[node];
  const std::string name = group.name;
  loop_->After(kDeleteDelayAfterTaint, [this, name, node, unneeded] {
    pods_->Evict(node);
    MachinePool mp;
    const int32_t before = mgmt_->Store<MachinePool>().Get({opts_.ns, name}, &mp).ok()
                               ? mp.spec.replicas.value_or(0)
                               : 0;
    std::string error;
    const bool deleted = DeleteNode(mgmt_, workload_, opts_.ns, name, node, &error);
    FinishDeletion(node);
    if (!deleted) {
      Decide(name, "scaleDownFailed: " + error, before, before);
      SetTaint(node, false);
      return;
    }
    Decide(name, "scaleDown: " + node + " unneeded for " + FormatDuration(unneeded), before,
           before - 1);
    ++stats_[name].scale_downs;
  });
}

// DeleteNodes returned (the actuator's deletion tracker ends there, §5.5):
// the node no longer counts against the budgets.
void ClusterAutoscaler::FinishDeletion(const std::string& node) {
  deleting_.erase(node);
  draining_.erase(node);
}

void ClusterAutoscaler::SetTaint(const std::string& node, bool on) {
  Node n;
  if (!workload_->Store<Node>().Get({"", node}, &n).ok()) return;
  auto& taints = n.spec.taints;
  const bool has = std::any_of(taints.begin(), taints.end(),
                               [](const Taint& t) { return t.key == kToBeDeletedTaint; });
  if (on == has) return;
  if (on) {
    taints.push_back({kToBeDeletedTaint, "", "NoSchedule"});
  } else {
    std::erase_if(taints, [](const Taint& t) { return t.key == kToBeDeletedTaint; });
  }
  workload_->Store<Node>().Patch(&n);
}

}  // namespace mpsim::autoscaler
