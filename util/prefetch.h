// A hint to the processor to start loading memory that a loop will read a few
// steps later, so that the cache misses of independent lookups overlap.
#pragma once

#include <cstddef>

namespace mpsim {

// How many steps ahead a loop over Nodes or cache slots starts loading what a
// later step reads: enough for a miss to be served by then, few enough that
// the lines are still in L1 when the step comes.
inline constexpr size_t kPrefetchAhead = 8;

// Never faults and changes no result: only when the load happens.
inline void PrefetchRead(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 0, 3);
  // GCC counts a prefetch as no side effect, so a helper that only
  // prefetches (KeyedObjects::PrefetchSlot) was deemed const before it was
  // inlined and every call to it deleted. The empty volatile statement is a
  // side effect, and keeps such helpers and their prefetches.
  asm volatile("" : : "r"(p));
#else
  (void)p;
#endif
}

}  // namespace mpsim
