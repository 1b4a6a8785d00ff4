// getNodeReferences' loop over a pool's providerIDs: each providerID's Node
// found in the kept providerID map, its Ready condition read. A plain loop of
// finds against the same loop run through BatchedFind, which starts each
// find's loads a few keys early. Same map, same keys, same answer, one run;
// the caches are emptied before each pass, as the events between two
// reconciles of a pool empty them.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/objects.h"
#include "tests/bench/evict_caches.h"
#include "util/batched_find.h"
#include "util/flat_view_map.h"
#include "util/shared_string.h"

namespace mpsim {
namespace {

using NodeMap = FlatViewMap<std::shared_ptr<const Node>>;

// n Nodes with the kubelet's four conditions, made in a shuffled order so
// that neighbours in the list are not neighbours in memory, as in a run.
struct Pool {
  explicit Pool(int n) {
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(1));
    std::vector<std::shared_ptr<const Node>> nodes(n);
    for (int i : order) {
      auto node = std::make_shared<Node>();
      node->meta.name = "ip-10-0-" + std::to_string(i) + ".ec2.internal";
      node->meta.uid = SharedString("uid-" + std::to_string(i));
      node->spec.provider_id = SharedString("aws:///us-east-1a/i-" + std::to_string(100000 + i));
      for (const char* type : {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}) {
        node->status.conditions.push_back({.type = type, .status = "False"});
      }
      node->status.conditions.back().status = "True";
      nodes[i] = std::move(node);
    }
    map.reserve(n);
    for (const auto& node : nodes) {
      ids.push_back(node->spec.provider_id);
      map.InsertOrAssign(node->spec.provider_id, node, node->spec.provider_id.Hash());
    }
  }
  NodeMap map;
  std::vector<SharedString> ids;
};

bool Ready(const Node& node) {
  const Condition* c = FindCondition(node.status.conditions, "Ready");
  return c != nullptr && c->status == "True";
}

// Passes over a pool with the caches emptied before each; `ready` counts
// the pool's Ready Nodes one way.
template <class CountReady>
void ColdPasses(benchmark::State& state, CountReady ready) {
  Pool pool(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    EvictCaches();
    state.ResumeTiming();
    benchmark::DoNotOptimize(ready(pool));
  }
}

void BM_PlainFinds(benchmark::State& state) {
  ColdPasses(state, [](const Pool& pool) {
    int ready = 0;
    for (const SharedString& id : pool.ids) {
      auto it = pool.map.find(id, id.Hash());
      if (it != pool.map.end() && Ready(*it->second)) ++ready;
    }
    return ready;
  });
}

void BM_BatchedFinds(benchmark::State& state) {
  ColdPasses(state, [](const Pool& pool) {
    int ready = 0;
    for (const Node* node :
         BatchedFind<std::shared_ptr<const Node>, std::vector<SharedString>, decltype(&WholeKey)>(
             pool.map, pool.ids, &WholeKey)) {
      if (node != nullptr && Ready(*node)) ++ready;
    }
    return ready;
  });
}

BENCHMARK(BM_PlainFinds)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BatchedFinds)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace mpsim
