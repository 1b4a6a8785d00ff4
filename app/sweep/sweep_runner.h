// Runs a sweep's runs on J threads. Each run is independent and seeded by the
// plan, so what a run produces does not depend on J or on the order of runs.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "scenario/scenario.pb.h"
#include "sim/proto/summary.pb.h"

namespace mpsim {

struct SweepJob {
  size_t run;                       // index in the plan
  uint64_t seed;                    // the run's root seed
  const proto::Scenario* scenario;  // the point's scenario (overrides applied)
};

// Called, one call at a time, with each finished run; false (with *error)
// stops the sweep.
using SweepSink =
    std::function<bool(const SweepJob&, const proto::RunSummary&, std::string* error)>;
// Called about every 200 ms from the calling thread with the runs done so far.
using SweepTick = std::function<void(size_t done)>;

// Runs `jobs` on `threads` threads. Takes no new job once *stop is true (a
// run under way finishes and reaches the sink). False with *error set when a
// run or the sink failed; true otherwise, including when stopped.
bool RunSweepJobs(const std::vector<SweepJob>& jobs, size_t threads, const SweepSink& sink,
                  const SweepTick& tick, const std::atomic<bool>* stop, std::string* error);

}  // namespace mpsim
