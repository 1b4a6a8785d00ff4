// `mpsim run --explain POOL`: the critical path of a pool's convergence as
// summary.json carries it, and as the lines a person reads.
#pragma once

#include <ostream>
#include <string>

#include "app/report/critical_path.h"
#include "sim/proto/summary.pb.h"

namespace mpsim {

// Copies `path` into the summary's message, with each segment's share of the total.
void FillCriticalPath(const CriticalPath& path, proto::CriticalPath* out);

// The pool named `pool` in `s`, or nullptr.
const proto::PoolSummary* FindPool(const proto::RunSummary& s, const std::string& pool);

// "why mp-0 took 93.4s ..." and one aligned line per segment, longest share
// visible at a glance; `color` bolds segments of 20 % or more.
void PrintExplanation(std::ostream& os, const proto::PoolSummary& pool, bool color);

}  // namespace mpsim
