// How much memory this process holds, for the run's memory budget
// (spec.limits.maxMemoryMiB): cheap enough to read every few thousand events.
#pragma once

#include <cstdint>

namespace mpsim {

// Resident set size of the calling process in bytes; 0 where it cannot be read
// (no /proc), so that a budget never stops a run on a platform it cannot measure.
uint64_t ResidentMemoryBytes();

}  // namespace mpsim
