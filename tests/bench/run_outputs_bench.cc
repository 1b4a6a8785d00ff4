// A run's three files written as `mpsim run` writes them (WriteRunOutputs:
// trace.json on a thread of its own beside timeline.csv and summary.json)
// against the same files written one after another on one thread, from the
// output of one 10,000-replica scale-up of the test provider. The pair is the
// guard of that thread (docs/PERFORMANCE.md, "Kept optimisations").
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <string_view>

#include "app/report/atomic_file.h"
#include "app/report/outputs.h"
#include "app/report/trace_json.h"
#include "app/world.h"
#include "scenario/loader.h"
#include "tests/bench/bench_scenarios.h"

namespace mpsim {
namespace {

// The outputs of one scale-up from 0 to 10,000 replicas, run once for both;
// null when it could not run.
const RunOutput* OutputsOfAScaleUp() {
  static const RunOutput* const kOut = [] {
    proto::Scenario sc;
    std::vector<ScenarioError> errors;
    auto* out = new RunOutput;
    std::string error;
    if (!LoadScenarioFromString(ScaleUpScenario("test", 10000), "bench.yaml", {}, &sc, &errors) ||
        !RunScenario(sc, 1, out, &error)) {
      delete out;
      return static_cast<RunOutput*>(nullptr);
    }
    return out;
  }();
  return kOut;
}

// The three files on one thread: trace.json, timeline.csv, summary.json.
bool WriteOneAfterAnother(const std::string& dir, const RunOutput& out, std::string* error) {
  AtomicFileWriter trace(dir + "/trace.json");
  WriteTraceJson(out, [&trace](std::string_view piece) { trace.Append(piece); });
  if (!trace.Commit(error)) return false;
  AtomicFileWriter csv(dir + "/timeline.csv");
  WriteTimelineCsv(out.recorder, [&csv](std::string_view piece) { csv.Append(piece); });
  return csv.Commit(error) &&
         WriteFileAtomic(dir + "/summary.json", SummaryJson(out.summary), error);
}

template <class Write>
void WriteOutputsLoop(benchmark::State& state, Write write) {
  const RunOutput* out = OutputsOfAScaleUp();
  if (out == nullptr) {
    state.SkipWithError("the scale-up did not run");
    return;
  }
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("mpsim_run_outputs_bench." + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  for (auto _ : state) {
    std::string error;
    if (!write(dir.string(), *out, &error)) state.SkipWithError(error.c_str());
  }
  std::filesystem::remove_all(dir);
}

void BM_WriteOutputsTraceOnItsThread(benchmark::State& state) {
  WriteOutputsLoop(state, WriteRunOutputs);
}
BENCHMARK(BM_WriteOutputsTraceOnItsThread)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WriteOutputsOneAfterAnother(benchmark::State& state) {
  WriteOutputsLoop(state, WriteOneAfterAnother);
}
BENCHMARK(BM_WriteOutputsOneAfterAnother)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace mpsim
