// The Node -> MachinePool mapping's List of the pools that hold one
// providerID: through the informer's field index (CacheClient::ListIndexed)
// against a List of every cached pool with a field filter, the scan the index
// replaced. Both answer the same question over the same cache in one run.
// Two shapes: many pools of one replica, and one pool of many.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/indexes.h"
#include "sim/api_server.h"
#include "sim/cache_client.h"
#include "sim/event_loop.h"
#include "sim/informer.h"
#include "util/shared_string.h"
#include "util/string_hash.h"

namespace mpsim {
namespace {

// An informer of `pools` MachinePools of `ids_per_pool` providerIDs each,
// with Cluster API's providerID index. The IDs are pinned, as a run's are.
struct IndexedPools {
  IndexedPools(int pools, int ids_per_pool)
      : server(&loop),
        informer(&loop, &server.Store<MachinePool>(), DistSpec::Constant(0),
                 StreamFor(1, "index-bench")),
        client(&informer, &server.Store<MachinePool>(), &writes) {
    informer.AddIndex(kMachinePoolProviderIDField);
    for (int p = 0; p < pools; ++p) {
      MachinePool mp;
      mp.meta = {.name = "mp-" + std::to_string(p), .ns = "default"};
      std::vector<SharedString> list;
      for (int i = 0; i < ids_per_pool; ++i) {
        ids.push_back("test://mp-" + std::to_string(p) + "-" + std::to_string(100000 + i));
        list.push_back(SharedString::Pinned(ids.back()));
      }
      mp.spec.provider_id_list = ProviderIDList(std::move(list));
      server.Store<MachinePool>().Create(&mp);
    }
    loop.Run(kSecond, 100'000'000);  // delivers every pool to the informer
  }

  StringArena strings;  // first: outlives everything that holds its strings
  EventLoop loop;
  ApiServer server;
  Informer<MachinePool> informer;
  uint64_t writes = 0;
  CacheClient<MachinePool> client;
  std::vector<std::string> ids;  // every providerID, in the order looked up
};

// Lists by each providerID in turn; `select` sets the options for one value.
template <class Select>
void IndexListLoop(benchmark::State& state, Select select) {
  IndexedPools w(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  if (w.informer.size() != static_cast<size_t>(state.range(0))) {
    state.SkipWithError("the informer did not receive every pool");
    return;
  }
  ListOptions<MachinePool> opts;
  size_t k = 0;
  for (auto _ : state) {
    select(w.ids[k], &opts);
    k = k + 1 == w.ids.size() ? 0 : k + 1;
    std::vector<std::shared_ptr<const MachinePool>> found = w.client.List(opts);
    if (found.size() != 1) state.SkipWithError("a providerID did not find its one pool");
    benchmark::DoNotOptimize(found.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_ListByProviderIDIndex(benchmark::State& state) {
  IndexListLoop(state, [](const std::string& id, ListOptions<MachinePool>* opts) {
    opts->index_field = kMachinePoolProviderIDField;
    opts->index_value = id;
  });
}

// What a List without the index must do: test every entry of every pool.
void BM_ListByProviderIDScan(benchmark::State& state) {
  std::string_view wanted;
  ListOptions<MachinePool> scan;
  scan.field = [&wanted](const MachinePool& mp) {
    if (!mp.spec.provider_id_list) return false;
    for (const SharedString& id : *mp.spec.provider_id_list) {
      if (BytesEqual(id, wanted)) return true;
    }
    return false;
  };
  IndexListLoop(state, [&](const std::string& id, ListOptions<MachinePool>* opts) {
    wanted = id;
    if (!opts->field) *opts = scan;
  });
}

// {pools, providerIDs per pool}
BENCHMARK(BM_ListByProviderIDIndex)
    ->Args({1000, 1})
    ->Args({10000, 1})
    ->Args({1, 1000})
    ->Args({1, 10000});
BENCHMARK(BM_ListByProviderIDScan)
    ->Args({1000, 1})
    ->Args({10000, 1})
    ->Args({1, 1000})
    ->Args({1, 10000});

}  // namespace
}  // namespace mpsim
