// One reconcile of a MachinePool with N instances against the simulator's own
// API server and informer caches: steady (every Node Ready: the nodeRefs
// early exit) and ramping (one Node not Ready: the whole nodeRef pass, as
// during a scale-up). The cost must grow linearly in N (DESIGN.md budget:
// O(N) per reconcile, never O(N^2)).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "controller/machinepool_reconciler.h"
#include "sim/api_server.h"
#include "sim/event_loop.h"
#include "sim/manager.h"
#include "tests/bench/evict_caches.h"
#include "util/shared_string.h"

namespace mpsim {
namespace {

constexpr const char* kNs = "default";

std::string Id(int i) { return "test://mp-0-" + std::to_string(100000 + i); }
std::string NodeName(int i) { return "mp-0-" + std::to_string(100000 + i); }

// A management and a workload API server holding a converged pool of n.
// Its uids, providerIDs and nodeRef names are pinned in an arena, as a run's
// are (app/world.cc): copies of them count nothing, so a reconcile here
// reads the lines a run's does, not each string's count as well.
struct World {
  // The last `not_ready` Nodes have a Ready condition of False.
  World(int n, int not_ready) : mgmt(&loop), workload(&loop) {
    manager = std::make_unique<Manager>(&loop, &mgmt,
                                        Manager::Options{"bench", DistSpec::Constant(0), 1});
    manager->AddWorkloadCluster({kNs, "c"}, &workload, [] { return true; });
    // The manager's own controller converges the pool while the loop runs.
    handle =
        manager->AddController<MachinePool>("machinepool", WorkQueueOptions{}, [this](Client* c) {
          return std::make_unique<MachinePoolReconciler>(c, &loop, MachinePoolOptions{});
        });
    Seed(n, not_ready);
    manager->Start();
    loop.Run(5 * kMinute, 100'000'000);
  }

  void Seed(int n, int not_ready) {
    Cluster cluster;
    cluster.meta = {.name = "c", .ns = kNs};
    cluster.status.conditions.push_back({.type = "ControlPlaneInitialized", .status = "True"});
    mgmt.Store<Cluster>().Create(&cluster);
    // The Nodes share the list's providerID buffers, as in a run, where the
    // kubelet's and the provider's strings both come from the cloud model.
    std::vector<SharedString> ids;
    for (int i = 0; i < n; ++i) {
      ids.push_back(SharedString::Pinned(Id(i)));
      Node node;
      node.meta.name = NodeName(i);
      node.spec.provider_id = ids.back();
      const bool ready = i < n - not_ready;
      node.status.conditions.push_back({.type = "Ready", .status = ready ? "True" : "False"});
      node.status.node_info.kubelet_version = "v1.30.0";
      workload.Store<Node>().Create(&node);
    }
    BootstrapConfig boot;
    boot.meta = {.name = "mp-0", .ns = kNs};
    boot.status.data_secret_created = true;
    boot.status.data_secret_name = "secret";
    mgmt.Store<BootstrapConfig>().Create(&boot);
    InfraMachinePool infra;
    infra.meta = {.name = "mp-0", .ns = kNs};
    infra.kind = "TestMachinePool";
    infra.spec.provider_id_list = ids;
    infra.status.ready = true;
    infra.status.replicas = n;
    mgmt.Store<InfraMachinePool>().Create(&infra);
    MachinePool mp;
    mp.meta = {.name = "mp-0", .ns = kNs};
    mp.spec.cluster_name = "c";
    mp.spec.replicas = n;
    mp.spec.template_.spec.version = "v1.30.0";
    mp.spec.template_.spec.bootstrap.config_ref = {.kind = "KubeadmConfig", .name = "mp-0"};
    mp.spec.template_.spec.infrastructure_ref = {.kind = "TestMachinePool", .name = "mp-0"};
    mgmt.Store<MachinePool>().Create(&mp);
  }

  StringArena strings;  // first: outlives everything that holds its strings
  EventLoop loop;
  ApiServer mgmt;
  ApiServer workload;
  std::unique_ptr<Manager> manager;
  ControllerHandle* handle = nullptr;
};

void ReconcileLoop(benchmark::State& state, int not_ready, bool cold) {
  const int n = static_cast<int>(state.range(0));
  World w(n, not_ready);
  MachinePoolReconciler r(&w.handle->client(), &w.loop, {});
  const Request req{{kNs, "mp-0"}};
  if (w.handle->client().MachinePools().GetShared(req.key)->status.node_refs.size() !=
      static_cast<size_t>(n)) {
    state.SkipWithError("the pool did not converge before the measurement");
  }
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      EvictCaches();
      state.ResumeTiming();
    }
    Result res;
    Status s = r.Reconcile(req, &res);
    if (!s.ok()) state.SkipWithError(s.message().c_str());
  }
  state.SetComplexityN(n);
  state.counters["per_instance"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}
void BM_ReconcileSteadyPool(benchmark::State& state) { ReconcileLoop(state, 0, false); }
// Replicas exceed ready Nodes, so every reconcile looks up, checks and
// patch-tests each Node and writes status: the pass that dominates a scale-up.
void BM_ReconcileRampingPool(benchmark::State& state) { ReconcileLoop(state, 1, false); }
// The same from cold caches, as each reconcile of a scale-up starts.
void BM_ReconcileRampingPoolCold(benchmark::State& state) { ReconcileLoop(state, 1, true); }

BENCHMARK(BM_ReconcileSteadyPool)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_ReconcileRampingPool)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_ReconcileRampingPoolCold)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpsim
