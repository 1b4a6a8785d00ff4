// Whole runs on each provider: a scale-up from 0 to N replicas, a storm of
// scale-ups, a scale-in and a pool deletion, and a scale-up and scale-in of
// a pool with MachinePool Machines; each reports events/s, simulated seconds
// per wall second and events per simulated second.
#include <benchmark/benchmark.h>

#include <string>

#include "app/world.h"
#include "scenario/loader.h"
#include "tests/bench/bench_scenarios.h"

namespace mpsim {
namespace {

void RunWhole(benchmark::State& state, const std::string& yaml) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  if (!LoadScenarioFromString(yaml, "bench.yaml", {}, &sc, &errors)) {
    state.SkipWithError(errors.empty() ? "load failed" : errors[0].String().c_str());
    return;
  }
  uint64_t events = 0;
  double simulated = 0;
  for (auto _ : state) {
    RunOutput out;
    std::string error;
    if (!RunScenario(sc, 1, &out, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
    events += out.summary.events_processed();
    simulated += out.summary.end_time_s();
  }
  state.counters["events/s"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["sim_s/wall_s"] = benchmark::Counter(simulated, benchmark::Counter::kIsRate);
  state.counters["events"] = static_cast<double>(events) / static_cast<double>(state.iterations());
  state.counters["events/sim_s"] = events / simulated;
}

void ScaleUp(benchmark::State& state, const std::string& provider) {
  RunWhole(state, ScaleUpScenario(provider, static_cast<int>(state.range(0))));
}

// Up to N, in to N/10 at 20m, up to N again at 40m, the pool deleted at 70m:
// every scale-in picks its victims from the whole pool, and the test
// provider's launch numbers pass 100,000 when N does, so a per-victim or
// per-pass rescan shows as growth faster than N between the two sizes.
std::string ChurnScenario(const std::string& provider, int replicas) {
  return OnePoolScenario("bench-churn", "2h", provider,
                         ScaleAt("0s", replicas) + ScaleAt("20m", replicas / 10) +
                             ScaleAt("40m", replicas) +
                             "  - {at: 70m, deletePool: {pool: mp-0}}\n");
}

void Churn(benchmark::State& state, const std::string& provider) {
  RunWhole(state, ChurnScenario(provider, static_cast<int>(state.range(0))));
}

// One InfraMachine and one Machine per instance (machinePoolMachines), up
// to N and in to N/2 at 30m: every member's event wakes controllers whose
// pass visits every member, so these runs grow faster than a plain scale-up.
void MachinePoolMachines(benchmark::State& state, const std::string& provider) {
  const int replicas = static_cast<int>(state.range(0));
  RunWhole(state, OnePoolScenario("bench-machinepool-machines", "1h", provider,
                                  ScaleAt("0s", replicas) + ScaleAt("30m", replicas / 2),
                                  "machinePoolMachines: true"));
}

// Issue 54's shape, as scripts/bench writes it (mpsim_many_pools_scenario):
// `pools` pools from 0 to 10,000 / `pools` replicas each at 0s. Its budget is
// 1.5 times ScaleUp/<provider>/10000 of the same run.
std::string ManyPoolsScenario(const std::string& provider, int pools) {
  std::string s =
      "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: bench-many-pools}\n"
      "spec:\n  horizon: 2h\n  apiServer: {maxObjectBytes: 0}\n  machinePools:\n";
  for (int i = 0; i < pools; ++i) {
    s += "    - {name: mp-" + std::to_string(i) + ", replicas: 0, provider: {" + provider +
         ": {}}}\n";
  }
  s += "  events:\n";
  for (int i = 0; i < pools; ++i) {
    s += "    - {at: 0s, scale: {pool: mp-" + std::to_string(i) +
         ", replicas: " + std::to_string(10000 / pools) + "}}\n";
  }
  return s;
}

void ManyPools(benchmark::State& state, const std::string& provider) {
  RunWhole(state, ManyPoolsScenario(provider, static_cast<int>(state.range(0))));
}
BENCHMARK_CAPTURE(ManyPools, test, "test")->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ManyPools, asg, "asg")->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ManyPools, mig, "mig")->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ManyPools, vmss, "vmss")->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

// 100k once per provider: a run takes 12-30 s on the shared host (docs/PERFORMANCE.md).
BENCHMARK_CAPTURE(ScaleUp, test, "test")->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ScaleUp, test, "test")->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ScaleUp, asg, "asg")->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ScaleUp, asg, "asg")->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ScaleUp, mig, "mig")->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ScaleUp, mig, "mig")->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ScaleUp, vmss, "vmss")->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ScaleUp, vmss, "vmss")->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);
// 60,000 on test: 120,000 launches, past the five-digit names.
BENCHMARK_CAPTURE(Churn, test, "test")->Arg(2500)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Churn, test, "test")->Arg(60000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Churn, asg, "asg")->Arg(2500)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Churn, mig, "mig")->Arg(2500)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Churn, vmss, "vmss")->Arg(2500)->Arg(10000)->Unit(benchmark::kMillisecond);
// mig has no MachinePool Machines.
BENCHMARK_CAPTURE(MachinePoolMachines, test, "test")
    ->Arg(1000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(MachinePoolMachines, asg, "asg")
    ->Arg(1000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(MachinePoolMachines, vmss, "vmss")
    ->Arg(1000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpsim
