// Shared by the benchmarks whose passes must start as a reconcile's do: with
// the tables they read pushed out of every cache.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

namespace mpsim {

// Reads and writes 64 MiB, more than the last-level caches here hold: in a
// run, the events between two reconciles of a pool push its Nodes out of cache.
inline void EvictCaches() {
  static std::vector<char> junk(size_t{64} << 20);
  for (size_t i = 0; i < junk.size(); i += 64) junk[i] = static_cast<char>(junk[i] + 1);
  benchmark::DoNotOptimize(junk.data());
}

}  // namespace mpsim
