// Cost per draw of the random streams and of each delay sampler.
#include <benchmark/benchmark.h>

#include "sim/distribution.h"
#include "sim/random.h"

namespace mpsim {
namespace {

void BM_RngNext(benchmark::State& state) {
  Rng rng(1);
  for (auto _ : state) benchmark::DoNotOptimize(rng.Next());
}

void BM_RngUniform01(benchmark::State& state) {
  Rng rng(1);
  for (auto _ : state) benchmark::DoNotOptimize(rng.Uniform01());
}

void BM_RngBelow(benchmark::State& state) {
  Rng rng(1);
  for (auto _ : state) benchmark::DoNotOptimize(rng.Below(1000));
}

void SampleLoop(benchmark::State& state, const DistSpec& spec) {
  Rng rng(1);
  for (auto _ : state) benchmark::DoNotOptimize(Sample(spec, rng));
}

BENCHMARK(BM_RngNext);
BENCHMARK(BM_RngUniform01);
BENCHMARK(BM_RngBelow);
BENCHMARK_CAPTURE(SampleLoop, Constant, DistSpec::Constant(kSecond));
BENCHMARK_CAPTURE(SampleLoop, Uniform, DistSpec::Uniform(kSecond, 2 * kSecond));
BENCHMARK_CAPTURE(SampleLoop, Exponential, DistSpec::Exponential(kSecond));
BENCHMARK_CAPTURE(SampleLoop, Lognormal, DistSpec::LognormalMedianP99(40 * kSecond, 2 * kMinute));
BENCHMARK_CAPTURE(SampleLoop, Normal, DistSpec::Normal(30 * kSecond, 5 * kSecond));
BENCHMARK_CAPTURE(SampleLoop, Empirical, DistSpec::Empirical({kSecond, 2 * kSecond, 5 * kSecond}));

}  // namespace
}  // namespace mpsim
