// DiffShared on two versions of a regional MIG's nodeRefs: listed zone by
// zone, so in no name order, and grown by a batch of new names in each zone.
// Every MachinePool write that changes the list pays this twice at 100k.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "sim/list_diff.h"

namespace mpsim {
namespace {

void BM_DiffSharedUnsortedGrowth(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int grown = n / 100;  // names the write adds, spread over the zones
  // Names made in a shuffled order, so that list order does not follow the
  // order of the buffers in memory (nodes become ready out of order).
  std::vector<int> order(n + grown);
  for (int i = 0; i < n + grown; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
  std::vector<SharedString> names(n + grown);
  for (int i : order)
    names[i] = SharedString("mp-0-" + std::to_string(i % 3) + "-" + std::to_string(i));
  std::vector<const SharedString*> before, after;
  for (int zone = 0; zone < 3; ++zone) {
    for (int i = zone; i < n + grown; i += 3) {
      if (i < n) before.push_back(&names[i]);
      after.push_back(&names[i]);
    }
  }
  size_t added = 0;
  for (auto _ : state) {
    ListDiff d = DiffShared(before, after, {});
    added += d.added.size();
    benchmark::DoNotOptimize(d);
  }
  if (added != static_cast<size_t>(grown) * state.iterations()) state.SkipWithError("wrong diff");
  state.counters["ns/entry"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(n + grown),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DiffSharedUnsortedGrowth)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpsim
