// The reports' per-pool reads of the timeline (critical paths, fault counts):
// each pool's rows found by filtering every row on the pool's name, against
// the rows the recorder keeps per pool (Recorder::RowsOf). Same recorder,
// same answer, one run; the shape of a 1,000-pool run's timeline.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/recorder.h"

namespace mpsim {
namespace {

// `pools` pools of `rows` rows each, interleaved as a run logs them.
Recorder Timeline(int pools, int rows) {
  Recorder rec;
  for (int r = 0; r < rows; ++r) {
    for (int p = 0; p < pools; ++p) {
      const std::string pool = "mp-" + std::to_string(p);
      rec.Change(r, "Node", pool + "-" + std::to_string(r), "ready", "", "True", pool);
    }
  }
  return rec;
}

std::vector<std::string> PoolNames(int pools) {
  std::vector<std::string> out;
  for (int p = 0; p < pools; ++p) out.push_back("mp-" + std::to_string(p));
  return out;
}

void BM_PoolRowsByScan(benchmark::State& state) {
  const Recorder rec = Timeline(static_cast<int>(state.range(0)), 10);
  const std::vector<std::string> pools = PoolNames(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    uint64_t n = 0;
    for (const std::string& pool : pools) {
      for (const TimelineRow& r : rec.rows()) n += r.pool == pool;
    }
    benchmark::DoNotOptimize(n);
  }
}

void BM_PoolRowsKept(benchmark::State& state) {
  const Recorder rec = Timeline(static_cast<int>(state.range(0)), 10);
  const std::vector<std::string> pools = PoolNames(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    uint64_t n = 0;
    for (const std::string& pool : pools) n += rec.RowsOf(pool).size();
    benchmark::DoNotOptimize(n);
  }
}

BENCHMARK(BM_PoolRowsByScan)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PoolRowsKept)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace mpsim
