// A cache's Gets by name, as a MachinePool reconcile makes one per nodeRef:
// FindAll (slots loaded a few keys ahead) against one Find per key, in one run.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "api/objects.h"
#include "sim/keyed_objects.h"
#include "tests/bench/evict_caches.h"
#include "util/shared_string.h"

namespace mpsim {
namespace {

// N Nodes in a cache, and their names in the order a pool lists them.
struct NamedNodes {
  KeyedObjects<Node> cache;
  std::vector<SharedString> names;
  std::vector<ObjectKeyRef> keys;

  explicit NamedNodes(size_t n) {
    for (size_t i = 0; i < n; ++i) {
      auto node = std::make_shared<Node>();
      node->meta.name = "mp-0-" + std::to_string(i);
      names.emplace_back(node->meta.name);
      cache.Put(std::move(node));
    }
    for (const SharedString& name : names) keys.push_back({"", name, name.Hash()});
  }
};

template <class Pass>
void RunPasses(benchmark::State& state, Pass pass) {
  const size_t n = static_cast<size_t>(state.range(0));
  NamedNodes nodes(n);
  for (auto _ : state) {
    // Each pass starts with the slots out of cache, as a reconcile's does.
    state.PauseTiming();
    EvictCaches();
    state.ResumeTiming();
    pass(nodes);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}

void BM_CacheFindAll(benchmark::State& state) {
  std::vector<const Node*> found;
  RunPasses(state, [&](const NamedNodes& nodes) {
    nodes.cache.FindAll(nodes.keys, &found);
    benchmark::DoNotOptimize(found.data());
  });
}
// A fixed count of passes: each is preceded by a 64 MiB eviction that the
// timer does not see, so at 1,000 Nodes (30 us a pass) Google Benchmark's own
// count to fill --benchmark_min_time would spend 17 s of wall time evicting.
constexpr int kPasses = 200;
BENCHMARK(BM_CacheFindAll)->Arg(1000)->Arg(10000)->Arg(100000)->Iterations(kPasses);

void BM_CacheFindEach(benchmark::State& state) {
  std::vector<const Node*> found;
  RunPasses(state, [&](const NamedNodes& nodes) {
    found.clear();
    for (const ObjectKeyRef& key : nodes.keys) {
      const std::shared_ptr<const Node>* cell = nodes.cache.Find(key);
      found.push_back(cell == nullptr ? nullptr : cell->get());
    }
    benchmark::DoNotOptimize(found.data());
  });
}
BENCHMARK(BM_CacheFindEach)->Arg(1000)->Arg(10000)->Arg(100000)->Iterations(kPasses);

}  // namespace
}  // namespace mpsim
