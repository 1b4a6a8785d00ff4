// The short human summary `mpsim run` prints: per pool the phase timeline,
// replicas, convergence and matching latency, in aligned columns.
#pragma once

#include <ostream>

#include "sim/proto/summary.pb.h"

namespace mpsim {

void PrintHumanSummary(std::ostream& os, const proto::RunSummary& s, bool color);

}  // namespace mpsim
