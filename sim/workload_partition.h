// Whether the management cluster can reach the workload cluster's API server
// (the workloadUnreachable event), with a timeline row at each change.
#pragma once

#include <functional>
#include <string>

#include "sim/event_loop.h"
#include "sim/recorder.h"

namespace mpsim {

class WorkloadPartition {
 public:
  // `on_change` runs at each disconnect and reconnect, after the row
  // `Cluster <cluster> reachable` is written.
  WorkloadPartition(EventLoop* loop, Recorder* rec, std::string cluster,
                    std::function<void()> on_change);
  WorkloadPartition(const WorkloadPartition&) = delete;
  WorkloadPartition& operator=(const WorkloadPartition&) = delete;

  // Cuts the connection from now for `d`; overlapping cuts merge.
  // REQUIRES: d > 0.
  void Cut(Duration d);
  // False while a cut lasts.
  bool Reachable() const { return loop_->Now() >= until_; }

 private:
  void Heal();

  EventLoop* loop_;
  Recorder* rec_;
  std::string cluster_;
  std::function<void()> on_change_;
  Time until_ = 0;    // unreachable while Now() < until_
  bool cut_ = false;  // a disconnect was reported and its reconnect not yet
};

}  // namespace mpsim
