// timeline.csv of a long run written to its file: a megabyte at a time
// (WriteTimelineCsv into an AtomicFileWriter, as `mpsim run` does) against
// the whole text made first and then written (TimelineCsv, WriteFileAtomic),
// from the same rows in one run. The gain sought is memory: a whole text is
// pages the kernel must zero on first touch, so besides the time each side
// reports the minor page faults of one write.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "app/report/atomic_file.h"
#include "app/report/outputs.h"
#include "sim/recorder.h"

namespace mpsim {
namespace {

// Rows shaped as a scale-up's: an instance's and a Node's changes.
Recorder TextSinkBenchRows(int rows) {
  Recorder rec;
  for (int i = 0; i < rows; ++i) {
    const std::string name = "mp-0-" + std::to_string(100000 + i / 4);
    rec.Change(static_cast<Time>(i) * kMillisecond, i % 2 ? "Node" : "Instance", name,
               i % 2 ? "Ready" : "state", "pending", "running", "mp-0");
  }
  return rec;
}

int64_t TextSinkBenchMinorFaults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// `write(rec, path, &error)` writes the timeline to `path`.
template <class Write>
void TimelineWriteLoop(benchmark::State& state, Write write) {
  const Recorder rec = TextSinkBenchRows(static_cast<int>(state.range(0)));
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("mpsim_text_sink_bench." + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "timeline.csv").string();
  const int64_t faults_before = TextSinkBenchMinorFaults();
  for (auto _ : state) {
    std::string error;
    if (!write(rec, path, &error)) state.SkipWithError(error.c_str());
  }
  const int64_t faults = TextSinkBenchMinorFaults() - faults_before;
  state.counters["faults_per_write"] =
      static_cast<double>(faults) / static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(std::filesystem::file_size(path)));
  std::filesystem::remove_all(dir);
}

void BM_TimelineWriteChunked(benchmark::State& state) {
  TimelineWriteLoop(state, [](const Recorder& rec, const std::string& path, std::string* error) {
    AtomicFileWriter file(path);
    WriteTimelineCsv(rec, [&file](std::string_view piece) { file.Append(piece); });
    return file.Commit(error);
  });
}
void BM_TimelineWriteWhole(benchmark::State& state) {
  TimelineWriteLoop(state, [](const Recorder& rec, const std::string& path, std::string* error) {
    return WriteFileAtomic(path, TimelineCsv(rec), error);
  });
}
BENCHMARK(BM_TimelineWriteChunked)->Arg(200000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelineWriteWhole)->Arg(200000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpsim
