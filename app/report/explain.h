// `mpsim run --explain POOL`: the critical path of a pool's convergence as
// summary.json carries it, and as the lines a person reads.
#pragma once

#include <ostream>
#include <string>

#include "app/report/critical_path.h"
#include "sim/proto/pod_waits.pb.h"
#include "sim/proto/summary.pb.h"

namespace mpsim {

// Copies `path` into the summary's message, with each segment's share of the total.
void FillCriticalPath(const CriticalPath& path, proto::CriticalPath* out);

// The pool named `pool` in `s`, or nullptr.
const proto::PoolSummary* FindPool(const proto::RunSummary& s, const std::string& pool);

// "why mp-0 took 93.4s ..." and one aligned line per segment, longest share
// visible at a glance; `color` bolds segments of 20 % or more. With `pods`
// (a run with pods), PrintPodWaits's lines follow the path.
void PrintExplanation(std::ostream& os, const proto::PoolSummary& pool, bool color,
                      const proto::PodWaits* pods = nullptr);

// "slowest pod on pool mp-0: pod-37 waited 250.3s: pending from ..., bound
// at ... to node N, launched at ... (the autoscaler's scale-up of mp-0 from 1
// to 25 at ...: its reason) and Ready at ...", or "no pod was bound to a node
// of pool mp-0"; then "3 pods still pending at the end of the run, the
// oldest since 300.0s" when some were. Nothing when `pods` lacks the pool.
// The sentences are docs/architecture.md's "Contract extension: pod waits".
void PrintPodWaits(std::ostream& os, const proto::PodWaits& pods, const std::string& pool);

}  // namespace mpsim
