// DiffShared on two versions of a list of names, as each MachinePool write
// that changes its nodeRefs or providerIDList is diffed by the informer's
// field index and by the pool observer: a regional MIG's nodeRefs in no name
// order, and a pool's nodeRefs in name order with what SharedList keeps per
// version (its strict order, and the diff itself) against working it out
// again.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "api/indexes.h"
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

// A pool's nodeRefs in name order, and the next version: N/100 new Nodes'
// references put in among them, every other entry sharing its buffer.
struct GrownNodeRefs {
  SharedList<NodeReference> before, after;
  size_t grown = 0;
};

GrownNodeRefs MakeGrownNodeRefs(int n) {
  const int total = n + n / 100;
  // Buffers made in a shuffled order, as Nodes register out of order.
  std::vector<int> order(total);
  for (int i = 0; i < total; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(11));
  std::vector<NodeReference> refs(total);
  for (int i : order) {
    char name[32];
    std::snprintf(name, sizeof name, "mp-0-%08d", i);
    refs[i].name = SharedString(name);
  }
  GrownNodeRefs g;
  std::vector<NodeReference> before;
  for (int i = 0; i < total; ++i) {
    if (i % 101 != 100) before.push_back(refs[i]);  // every 101st is new
  }
  g.grown = refs.size() - before.size();
  g.before = SharedList<NodeReference>(std::move(before));
  g.after = SharedList<NodeReference>(std::move(refs));
  return g;
}

std::vector<const SharedString*> RefNames(const SharedList<NodeReference>& refs) {
  std::vector<const SharedString*> out;
  AppendNodeRefNames(refs, &out);
  return out;
}

// One watcher's diff of a new version whose order is `after_sorted`.
size_t DiffOnce(const GrownNodeRefs& g, bool after_sorted) {
  return DiffShared(RefNames(g.before), RefNames(g.after),
                    {.before_sorted = NamesStrictlySorted(g.before), .after_sorted = after_sorted})
      .added.size();
}

// Each iteration makes `after` a new version (Mutable forgets what was kept
// with it, without a copy) and runs `diffs`(g), which returns the names its
// `count` diffs found added.
template <class Diffs>
void NewVersionLoop(benchmark::State& state, size_t count, Diffs diffs) {
  GrownNodeRefs g = MakeGrownNodeRefs(static_cast<int>(state.range(0)));
  size_t added = 0;
  for (auto _ : state) {
    g.after.Mutable();
    added += diffs(g);
  }
  if (added != count * g.grown * state.iterations()) state.SkipWithError("wrong diff");
}

// The new version's order settled beside the last one's (StrictlySortedFrom):
// neighbours kept from it are compared by buffer address, not by text.
void BM_DiffOrderFromBase(benchmark::State& state) {
  NewVersionLoop(state, 1, [](const GrownNodeRefs& g) {
    return DiffOnce(g, NamesStrictlySortedFrom(g.after, g.before));
  });
}
// The same with the order checked by reading every name.
void BM_DiffOrderByText(benchmark::State& state) {
  NewVersionLoop(state, 1,
                 [](const GrownNodeRefs& g) { return DiffOnce(g, NamesStrictlySorted(g.after)); });
}
BENCHMARK(BM_DiffOrderFromBase)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DiffOrderByText)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMicrosecond);

// Two watchers of each write: the diff kept with the version (Derived) and
// read by the second, against each working it out.
void BM_DiffDerivedTwoWatchers(benchmark::State& state) {
  NewVersionLoop(state, 2, [](const GrownNodeRefs& g) {
    return DiffNodeRefNames(g.before, g.after)->added.size() +
           DiffNodeRefNames(g.before, g.after)->added.size();
  });
}
void BM_DiffEachOfTwoWatchers(benchmark::State& state) {
  NewVersionLoop(state, 2, [](const GrownNodeRefs& g) {
    const bool sorted = NamesStrictlySortedFrom(g.after, g.before);
    return DiffOnce(g, sorted) + DiffOnce(g, sorted);
  });
}
BENCHMARK(BM_DiffDerivedTwoWatchers)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DiffEachOfTwoWatchers)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace mpsim
