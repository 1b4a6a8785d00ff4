// A controller's status write to a MachinePool of 10,000 replicas that
// changes one field: a merge patch (ObjectClient::Patch(base, obj), only the
// writer's changes) against a whole-object patch (Patch(obj)), on the same
// object in one run. Each write is read, changed and written, as a reconcile's.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/api_server.h"
#include "sim/cache_client.h"
#include "sim/event_loop.h"
#include "util/shared_string.h"

namespace mpsim {
namespace {

constexpr const char* kPatchNs = "default";

// One MachinePool with a `replicas`-entry providerIDList and nodeRefs, stored
// on an API server; strings pinned, as a run's are.
struct PatchedPool {
  explicit PatchedPool(int replicas)
      : server(&loop), client(&server.Store<MachinePool>(), &writes) {
    MachinePool mp;
    mp.meta = {.name = "mp-0", .ns = kPatchNs};
    mp.spec.cluster_name = "c";
    mp.spec.replicas = replicas;
    std::vector<SharedString> ids;
    std::vector<NodeReference> refs;
    for (int i = 0; i < replicas; ++i) {
      const std::string name = "mp-0-" + std::to_string(100000 + i);
      ids.push_back(SharedString::Pinned("test://" + name));
      refs.push_back({.name = SharedString::Pinned(name)});
    }
    mp.spec.provider_id_list = ProviderIDList(std::move(ids));
    mp.status.node_refs = std::move(refs);
    mp.status.replicas = replicas;
    mp.status.ready_replicas = replicas;
    mp.status.phase = "Running";
    mp.status.conditions.push_back({.type = "Ready", .status = "True"});
    server.Store<MachinePool>().Create(&mp);
  }

  StringArena strings;  // first: outlives everything that holds its strings
  EventLoop loop;
  ApiServer server;
  uint64_t writes = 0;
  ServerClient<MachinePool> client;  // Patch as CacheClient's, reads from the server
};

// `patch(client, base, &mine)` writes `mine`, read as `base` and changed in
// one status field.
template <class Write>
void PatchLoop(benchmark::State& state, Write patch) {
  PatchedPool w(static_cast<int>(state.range(0)));
  const ObjectKey key{kPatchNs, "mp-0"};
  int32_t available = 0;
  for (auto _ : state) {
    const std::shared_ptr<const MachinePool> base = w.client.GetShared(key);
    MachinePool mine = *base;
    mine.status.available_replicas = ++available;  // a real change each time
    Status s = patch(w.client, *base, &mine);
    if (!s.ok()) state.SkipWithError(s.message().c_str());
  }
  if (w.client.GetShared(key)->status.available_replicas != available) {
    state.SkipWithError("the last write did not land");
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_PatchMerge(benchmark::State& state) {
  PatchLoop(state, [](ObjectClient<MachinePool>& c, const MachinePool& base, MachinePool* mine) {
    return c.Patch(base, mine);
  });
}
void BM_PatchWholeObject(benchmark::State& state) {
  PatchLoop(state, [](ObjectClient<MachinePool>& c, const MachinePool&, MachinePool* mine) {
    return c.Patch(mine);
  });
}
BENCHMARK(BM_PatchMerge)->Arg(10000);
BENCHMARK(BM_PatchWholeObject)->Arg(10000);

}  // namespace
}  // namespace mpsim
