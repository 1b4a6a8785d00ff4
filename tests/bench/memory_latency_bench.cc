// The host's memory as a 100,000-replica run meets it: nanoseconds per
// dependent load over working sets from inside L2 to far past any L3.
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <numeric>
#include <random>
#include <vector>

namespace mpsim {
namespace {

// A run's wall time past the cache cliff follows the cost of a miss, which
// on a shared machine moves with the neighbours far more than the cost of
// an instruction does (SampleLoop). scripts/bench runs this before and after
// its scaling pass so that each table says what memory its runs had.
struct alignas(64) Line {
  const Line* next;
};

// One cycle through every line of `bytes`, in a random order, so that no
// prefetcher guesses the next load. Huge pages where the kernel gives them,
// as the simulator's heap has (app/huge_pages.h): then the chase measures
// memory, not the page walks of 4 KiB pages.
class Chain {
 public:
  Chain(size_t bytes, bool huge_pages) : lines_(bytes / sizeof(Line)) {
    void* p = nullptr;
    if (posix_memalign(&p, kHugePage, lines_ * sizeof(Line)) != 0) throw std::bad_alloc();
    madvise(p, lines_ * sizeof(Line), huge_pages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    mem_.reset(static_cast<Line*>(p));
    std::vector<size_t> order(lines_);
    std::iota(order.begin(), order.end(), size_t{0});
    std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
    for (size_t i = 0; i < lines_; ++i) mem_[order[i]].next = &mem_[order[(i + 1) % lines_]];
  }
  const Line* start() const { return &mem_[0]; }

 private:
  static constexpr size_t kHugePage = size_t{2} << 20;
  struct Free {
    void operator()(Line* p) const { free(p); }
  };
  size_t lines_;
  std::unique_ptr<Line[], Free> mem_;
};

void ChaseLines(benchmark::State& state, bool huge_pages) {
  Chain chain(static_cast<size_t>(state.range(0)) << 20, huge_pages);
  constexpr int kLoads = 1 << 16;
  const Line* at = chain.start();
  for (auto _ : state) {
    for (int i = 0; i < kLoads; ++i) at = at->next;
    benchmark::DoNotOptimize(at);
  }
  // Seconds per load, printed with an SI prefix: "latency=153n" is 153 ns.
  state.counters["latency"] = benchmark::Counter(
      kLoads, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
void BM_MemoryLatency(benchmark::State& state) { ChaseLines(state, true); }

// The same chase on 4 KiB pages: what mpsim's huge-page heap reserve
// (app/huge_pages.h) saves per miss once a run's objects outgrow the TLBs.
void BM_MemoryLatencySmallPages(benchmark::State& state) { ChaseLines(state, false); }

// MiB: in L2, in this host's L3 slice, past it, and past the TLBs' reach.
BENCHMARK(BM_MemoryLatencySmallPages)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemoryLatency)
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Arg(64)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpsim
