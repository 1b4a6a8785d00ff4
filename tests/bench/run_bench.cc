// Whole runs: a scale-up from 0 to N replicas with the test provider,
// reporting events/s and simulated seconds per wall second.
#include <benchmark/benchmark.h>

#include <string>

#include "app/world.h"
#include "sim/scenario_loader.h"

namespace mpsim {
namespace {

std::string ScaleUpScenario(int replicas) {
  return "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: bench-scale-up}\n"
         "spec:\n  horizon: 1h\n  machinePools:\n  - name: mp-0\n    replicas: 0\n"
         "    version: v1.30.0\n    provider: {test: {}}\n  events:\n  - at: 0s\n"
         "    scale: {pool: mp-0, replicas: " +
         std::to_string(replicas) + "}\n";
}

void BM_ScaleUpTestProvider(benchmark::State& state) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  if (!LoadScenarioFromString(ScaleUpScenario(static_cast<int>(state.range(0))), "bench.yaml", {},
                              &sc, &errors)) {
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
}
BENCHMARK(BM_ScaleUpTestProvider)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpsim
