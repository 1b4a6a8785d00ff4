// The ASG's Default termination policy on a scale-in of nine tenths of a pool
// of N: the time per victim should stay nearly flat as N grows.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "models/asg/termination_policy.h"

namespace mpsim::asg {
namespace {

// Three zones, two template versions, launches a minute apart in batches of
// 100, so the ties the policy draws from are large, as after a scale-up.
std::vector<Candidate> Pool(int n) {
  const char* zones[] = {"us-east-1a", "us-east-1b", "us-east-1c"};
  std::vector<Candidate> out;
  for (int i = 0; i < n; ++i) {
    out.push_back({"i-" + std::to_string(1000000 + i), zones[i % 3], 1 + (i % 7 == 0),
                   static_cast<Time>(i / 100) * kMinute});
  }
  return out;
}

void BM_ScaleInVictims(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<Candidate> pool = Pool(n);
  const int count = n - n / 10;
  for (auto _ : state) {
    Rng rng(1);
    benchmark::DoNotOptimize(ChooseVictims(pool, count, 3 * kHour, &rng));
  }
  state.SetItemsProcessed(state.iterations() * count);  // items/s: victims per second
}
BENCHMARK(BM_ScaleInVictims)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpsim::asg
