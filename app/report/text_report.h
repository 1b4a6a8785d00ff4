// The short human summary `mpsim run` prints: per pool the phase timeline,
// replicas, convergence and matching latency, in aligned columns.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "sim/proto/summary.pb.h"

namespace mpsim {

void PrintHumanSummary(std::ostream& os, const proto::RunSummary& s, bool color);

// One line per controller of the pool's last_errors, its message cut to
// kShortMessage characters; nothing when no reconcile failed.
void PrintLastErrors(std::ostream& os, const proto::PoolSummary& p);

inline constexpr size_t kShortMessage = 120;
// `message` on one line, cut to at most `max` bytes (at a character boundary) with "...".
std::string ShortMessage(const std::string& message, size_t max = kShortMessage);

}  // namespace mpsim
