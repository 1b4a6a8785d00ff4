// The log of everything observable that happens in a run: state changes (the
// timeline), reconciles, faults and Kubernetes Events. Reports are computed
// from it after the run, so the simulation never formats output.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/time.h"

namespace mpsim {

struct TimelineRow {
  Time time = 0;
  std::string object_kind;  // MachinePool, Instance, Node, InfraMachinePool, Controller, Fault ...
  std::string object;
  std::string field;
  std::string from;
  std::string to;
  std::string pool;  // the MachinePool this row belongs to ("" if none); not a CSV column
};

// The timeline, in blocks: a run appends hundreds of thousands of rows, and
// a vector would copy them all at every doubling and hold both copies
// meanwhile (a 100,000-replica run's largest allocation).
using TimelineRows = std::deque<TimelineRow>;

struct ReconcileSpan {
  std::string controller;
  std::string object;
  Time start = 0;
  Time end = 0;
  std::string outcome;  // "ok", "requeueAfter 30s", "error: ..."
  // The controller's sync period when its periodic resync, and no event or
  // requeue, put the object in the queue for this reconcile; 0 otherwise.
  Duration resync = 0;
};

// One controller's work queue, as the steps of its load in the order they
// were taken (WorkQueue::LoadObserver); a step may take effect later than
// the next one logged, so a reader sorts them by time.
struct QueueLoadStep {
  Time at = 0;
  int8_t depth = 0;  // keys due and waiting for a worker
  int8_t busy = 0;   // reconciles in progress
};
struct QueueLoad {
  std::string controller;
  std::vector<QueueLoadStep> steps;
};

// The reconciles of one controller that failed for one pool's objects.
struct ErrorTally {
  std::string message;  // the latest failure's (by start time)
  uint64_t count = 0;   // every failed reconcile
  Time first = 0;       // start of the first failed reconcile
  Time last = 0;        // start of the latest
};

class Recorder {
 public:
  Recorder() = default;
  // Moves keep the rows where they are; a copy would leave RowsOf pointing
  // into the original.
  Recorder(Recorder&&) = default;
  Recorder& operator=(Recorder&&) = default;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Appends a timeline row; from == to is dropped (not a change).
  void Change(Time t, std::string kind, std::string object, std::string field, std::string from,
              std::string to, std::string pool = "");
  // A row kept even when `from` equals `to`: a decision that changed nothing.
  void Decision(TimelineRow row) { Append(std::move(row)); }
  // An injected fault: a timeline row of kind Fault and a per-pool count.
  void Fault(Time t, const std::string& pool, const std::string& object, const std::string& what);
  void Reconcile(ReconcileSpan span);
  // A new log of `controller`'s queue load; its index for QueueLoadStepped.
  size_t AddQueueLoad(std::string controller) {
    queue_loads_.push_back({std::move(controller), {}});
    return queue_loads_.size() - 1;
  }
  void QueueLoadStepped(size_t log, Time at, int depth_step, int busy_step) {
    queue_loads_[log].steps.push_back(
        {at, static_cast<int8_t>(depth_step), static_cast<int8_t>(busy_step)});
  }
  // A reconcile of `pool`'s object by `controller`, started at t, returned
  // an error saying `message`. Kept per (pool, controller): bounded by them.
  void ReconcileError(Time t, const std::string& pool, const std::string& controller,
                      const std::string& message);
  // A cloud API call made by a provider for a pool (for provider_api_calls);
  // `api` names the call, e.g. "<service>:DescribeInstances".
  void ProviderApiCall(const std::string& pool, const std::string& api = "other") {
    ++api_calls_[pool];
    ++api_calls_by_api_[pool][api];
  }

  const TimelineRows& rows() const { return rows_; }
  // The rows of one pool, in the timeline's order: reports read each pool's
  // rows, and a scan of every row per pool grows with pools x rows.
  const std::vector<const TimelineRow*>& RowsOf(const std::string& pool) const {
    return Find(rows_by_pool_, pool);
  }
  const std::vector<ReconcileSpan>& reconciles() const { return reconciles_; }
  const std::vector<QueueLoad>& queue_loads() const { return queue_loads_; }
  // The positions in reconciles() of the reconciles of objects named
  // `object` (any controller, any kind), in order.
  const std::vector<size_t>& ReconcilesOf(const std::string& object) const {
    return Find(reconciles_by_object_, object);
  }
  uint64_t faults(const std::string& pool) const { return Get(faults_, pool); }
  uint64_t provider_api_calls(const std::string& pool) const { return Get(api_calls_, pool); }
  const std::map<std::string, uint64_t>& faults_by_kind() const { return faults_by_kind_; }
  // `pool`'s failures by controller name.
  const std::map<std::string, ErrorTally>& errors(const std::string& pool) const {
    static const std::map<std::string, ErrorTally> kNone;
    auto it = errors_.find(pool);
    return it == errors_.end() ? kNone : it->second;
  }
  const std::map<std::string, uint64_t>& provider_api_calls_by_api(const std::string& pool) const {
    static const std::map<std::string, uint64_t> kNone;
    auto it = api_calls_by_api_.find(pool);
    return it == api_calls_by_api_.end() ? kNone : it->second;
  }

 private:
  static uint64_t Get(const std::map<std::string, uint64_t>& m, const std::string& k) {
    auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
  }
  template <class V>
  static const std::vector<V>& Find(const std::unordered_map<std::string, std::vector<V>>& m,
                                    const std::string& k) {
    static const std::vector<V> kNone;
    auto it = m.find(k);
    return it == m.end() ? kNone : it->second;
  }
  void Append(TimelineRow row);

  TimelineRows rows_;  // a deque: appending moves no row, so RowsOf's pointers hold
  std::unordered_map<std::string, std::vector<const TimelineRow*>> rows_by_pool_;
  std::vector<ReconcileSpan> reconciles_;
  std::vector<QueueLoad> queue_loads_;
  std::unordered_map<std::string, std::vector<size_t>> reconciles_by_object_;
  std::map<std::string, uint64_t> faults_;
  std::map<std::string, uint64_t> faults_by_kind_;
  std::map<std::string, uint64_t> api_calls_;
  std::map<std::string, std::map<std::string, uint64_t>> api_calls_by_api_;
  std::map<std::string, std::map<std::string, ErrorTally>> errors_;  // pool -> controller ->
};

}  // namespace mpsim
