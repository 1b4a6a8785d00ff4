// The workload cluster's pods and the scheduler that binds them: as small as
// the autoscaler needs. Pods carry cpu and memory requests; a Node offers
// what its pool's nodeResources say. The scheduler binds pending pods in
// creation order, each to the first Node in name order that is Ready, has
// no NoSchedule or NoExecute taint, is not being deleted and has room
// (cpu, memory and a pod slot). A Node that goes takes its pods with it and
// their ReplicaSet makes new pending ones.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "api/time.h"
#include "sim/api_server.h"
#include "sim/event_loop.h"
#include "sim/pod_waits.h"
#include "sim/recorder.h"

namespace mpsim {

// What a pod requests, or a Node offers: cpu in millicores, memory in bytes.
struct Resources {
  int64_t cpu_milli = 0;
  int64_t memory_bytes = 0;
  int32_t pods = 0;  // a Node's pod slots; 1 for a pod
};

struct Pod {
  uint64_t id = 0;  // creation order
  Resources request;
  Time created = 0;
  std::string node;    // empty while pending
  bool tried = false;  // a scheduling pass found no Node for it: it is unschedulable
};

// What the scheduler knows of one Node.
struct NodeRoom {
  std::string pool;
  Resources allocatable;
  Resources requested;  // sum of the requests of the pods bound to it
  bool schedulable = false;
  std::set<uint64_t> pods;  // bound here
  bool Fits(const Resources& r) const;
};

struct PodStats {
  uint64_t created = 0;
  uint64_t scheduled = 0;
  std::vector<Duration> latencies;  // creation to binding, in binding order
};

class PodScheduler {
 public:
  // `pool_of` names the pool of a Node; `allocatable` says what a Node of a
  // pool offers.
  PodScheduler(EventLoop* loop, ApiServer* workload, Recorder* rec,
               std::function<std::string(const std::string& node)> pool_of,
               std::function<Resources(const std::string& pool)> allocatable);
  PodScheduler(const PodScheduler&) = delete;
  PodScheduler& operator=(const PodScheduler&) = delete;

  // A Deployment scaled up: `count` pending pods each requesting `request`.
  void CreatePods(int count, Resources request);
  // A Deployment scaled down: `count` pods go, pending ones first, then the
  // newest (the ReplicaSet controller's deletion order).
  void DeletePods(int count);
  // Evicts every pod of `node` (a drain): their ReplicaSet makes new pending
  // ones, which are scheduled elsewhere if there is room.
  void Evict(const std::string& node);

  // Called after a scheduling pass that found pods no Node can take for the
  // first time (the autoscaler's trigger for a loop).
  void OnUnschedulable(std::function<void()> f) { on_unschedulable_ = std::move(f); }

  const std::map<uint64_t, Pod>& pods() const { return pods_; }
  // Pending pods, oldest first; each was tried and fits no Node now.
  std::vector<const Pod*> Pending() const;
  const std::map<std::string, NodeRoom>& nodes() const { return nodes_; }
  const PodStats& stats() const { return stats_; }
  // Per pool, the pod bound to one of its Nodes after the longest wait.
  const SlowestPodWaits& slowest_waits() const { return slowest_; }

 private:
  void NodeChanged(WatchEvent<Node>::Type type, const Node& node);
  static bool Schedulable(const Node& node);
  void Replace(const std::vector<uint64_t>& ids);
  void AddPending(const Resources& request);
  void Unbind(uint64_t id);
  // Asks for a scheduling pass at the current instant (one per instant).
  void Wake();
  void SchedulePending();
  void RecordPending(size_t before);

  EventLoop* loop_;
  Recorder* rec_;
  std::function<std::string(const std::string&)> pool_of_;
  std::function<Resources(const std::string&)> allocatable_;
  std::map<uint64_t, Pod> pods_;
  std::set<uint64_t> pending_;
  std::map<std::string, NodeRoom> nodes_;  // by name: first fit walks them in name order
  uint64_t next_id_ = 0;
  bool pass_due_ = false;
  std::function<void()> on_unschedulable_;
  PodStats stats_;
  SlowestPodWaits slowest_;
};

}  // namespace mpsim
