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

// A pool's critical path still to be worked out: its index in
// RunSummary.pools and what to ask of the recorder.
struct PendingPath {
  int pool = 0;
  PathQuery query;
};

struct SummaryInputs {
  const proto::Scenario* scenario;
  uint64_t seed;
  const EventLoop::Stats* stats;
  const PoolObserver* observer;
  const Recorder* recorder;
  uint64_t api_writes = 0;
  uint64_t reconciles = 0;
  // Non-null: each pool's critical path is queued here, for
  // FillCriticalPaths, instead of being worked out by BuildSummary.
  std::vector<PendingPath>* deferred_paths = nullptr;
};

void BuildSummary(const SummaryInputs& in, proto::RunSummary* out);

// Works out the queued critical paths, in order. It reads only `rec`, so it
// can run while the world that filled `rec` is torn down.
std::vector<CriticalPath> ComputeCriticalPaths(const Recorder& rec,
                                               const std::vector<PendingPath>& paths);
// Writes them into their pools.
void FillCriticalPaths(const std::vector<PendingPath>& paths,
                       const std::vector<CriticalPath>& computed, proto::RunSummary* out);

// Nearest-rank percentile (q in (0,1]) of sorted values. REQUIRES: !sorted.empty().
Duration Percentile(const std::vector<Duration>& sorted, double q);
// p50, p90, p99, max and count of `v`, in seconds.
void FillLatency(std::vector<Duration> v, proto::LatencyStats* out);

}  // namespace mpsim
