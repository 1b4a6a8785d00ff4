// Turns what a run observed (pool records, recorder, loop statistics) into
// the RunSummary message that summary.json and the human summary print.
#pragma once

#include <cstdint>
#include <vector>

#include "app/report/critical_path.h"
#include "scenario/scenario.pb.h"
#include "sim/event_loop.h"
#include "sim/pool_observer.h"
#include "sim/proto/summary.pb.h"
#include "sim/recorder.h"

namespace mpsim {

struct SummaryInputs {
  const proto::Scenario* scenario;
  uint64_t seed;
  const EventLoop::Stats* stats;
  const PoolObserver* observer;
  const Recorder* recorder;
  uint64_t api_writes = 0;
  uint64_t reconciles = 0;
};

void BuildSummary(const SummaryInputs& in, proto::RunSummary* out);

// Nearest-rank percentile (q in (0,1]) of sorted values. REQUIRES: !sorted.empty().
Duration Percentile(const std::vector<Duration>& sorted, double q);
// p50, p90, p99, max and count of `v`, in seconds.
void FillLatency(std::vector<Duration> v, proto::LatencyStats* out);

}  // namespace mpsim
