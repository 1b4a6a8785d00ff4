#include "sim/workload_partition.h"

#include <algorithm>
#include <cassert>

namespace mpsim {

WorkloadPartition::WorkloadPartition(EventLoop* loop, Recorder* rec, std::string cluster,
                                     std::function<void()> on_change)
    : loop_(loop), rec_(rec), cluster_(std::move(cluster)), on_change_(std::move(on_change)) {}

void WorkloadPartition::Cut(Duration d) {
  assert(d > 0);
  const Time end = loop_->Now() + d;
  until_ = std::max(until_, end);
  loop_->At(end, [this] { Heal(); });
  if (cut_) return;
  cut_ = true;
  rec_->Change(loop_->Now(), "Cluster", cluster_, "reachable", "true", "false");
  on_change_();
}

// Each cut schedules a heal at its end; only the last one reconnects.
void WorkloadPartition::Heal() {
  if (!cut_ || loop_->Now() < until_) return;
  cut_ = false;
  rec_->Change(loop_->Now(), "Cluster", cluster_, "reachable", "false", "true");
  on_change_();
}

}  // namespace mpsim
