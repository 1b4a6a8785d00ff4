// A hint to the processor to start loading memory that a loop will read a few
// steps later, so that the cache misses of independent lookups overlap.
#pragma once

namespace mpsim {

// Never faults and changes no result: only when the load happens.
inline void PrefetchRead(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 0, 3);
#else
  (void)p;
#endif
}

}  // namespace mpsim
