// One reconcile of a steady-state MachinePool with N instances (every
// providerID matched, every Node Ready): the cost must grow linearly in N
// (DESIGN.md budget: O(N) per reconcile, never O(N^2)).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "controller/machinepool_reconciler.h"
#include "tests/testing/machinepool_fixtures.h"

namespace mpsim {
namespace {

std::string Id(int i) { return "test://node-" + std::to_string(i); }

// The fake client the controller tests use, seeded with a pool of n that has
// already converged, so each reconcile re-reads and re-derives everything.
void Seed(fake::Harness* h, int n) {
  Cluster cluster = fake::MakeCluster("c");
  cluster.status.conditions.push_back({.type = "ControlPlaneInitialized", .status = "True"});
  h->client.clusters().Add(cluster);
  std::vector<std::string> ids;
  std::vector<NodeReference> refs;
  for (int i = 0; i < n; ++i) {
    ids.push_back(Id(i));
    refs.push_back(fake::NodeRef("node-" + std::to_string(i)));
    h->client.nodes().Add(fake::MakeNode("node-" + std::to_string(i), Id(i), "True"));
  }
  InfraMachinePool infra = fake::MakeInfra("infra", ids);
  infra.kind = fake::kTestInfraMachinePoolKind;
  infra.status.ready = true;
  infra.status.replicas = n;
  h->client.infra_machine_pools().Add(infra);
  h->client.bootstrap_configs().Add(fake::ReadyBootstrap("boot", "secret"));
  MachinePool mp;
  mp.meta = {.name = "mp", .ns = fake::kDefaultNs};
  mp.meta.finalizers = {"machinepool.cluster.x-k8s.io"};
  mp.spec.cluster_name = "c";
  mp.spec.replicas = n;
  mp.spec.provider_id_list = ids;
  mp.spec.template_.spec.bootstrap.config_ref = fake::BootstrapRef("boot");
  mp.spec.template_.spec.infrastructure_ref =
      fake::InfraRef("infra", fake::kTestInfraMachinePoolKind);
  mp.status.node_refs = refs;
  h->client.machine_pools().Add(mp);
}

void BM_ReconcileSteadyPool(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  fake::Harness h;
  Seed(&h, n);
  MachinePoolReconciler r(&h.client, &h.clock, {});
  Result res;
  // The first passes add the owner reference, conditions and counters.
  for (int i = 0; i < 3; ++i) (void)r.Reconcile({{fake::kDefaultNs, "mp"}}, &res);
  for (auto _ : state) {
    Status s = r.Reconcile({{fake::kDefaultNs, "mp"}}, &res);
    if (!s.ok()) state.SkipWithError(s.message().c_str());
  }
  state.SetComplexityN(n);
  state.counters["ns/instance"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}
BENCHMARK(BM_ReconcileSteadyPool)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

}  // namespace
}  // namespace mpsim
