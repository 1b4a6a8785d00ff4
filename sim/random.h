// Deterministic random streams: one root seed, one independent stream per
// stable component name, so adding a component never shifts another's draws.
// The generator is xoshiro256** seeded through SplitMix64; both are portable
// and pinned by golden-value tests (tests/sim/random_test.cc).
//
// Derivation: Rng(seed) fills the four state words with the first four
// SplitMix64 outputs starting from `seed`. StreamFor(root, name) is
// Rng(SplitMix64_first(root) ^ FNV1a64(name)), where SplitMix64_first(x) is
// the first SplitMix64 output from state x. Changing any of this changes
// every simulated result, so it is a format break like a schema change.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace mpsim {

class Rng {
 public:
  explicit Rng(uint64_t seed);
  // Next 64 random bits.
  uint64_t Next();
  // Uniform in [0, 1) with 53 bits of precision.
  double Uniform01();
  // Uniform integer in [0, n). REQUIRES: n > 0. Unbiased (Lemire's
  // rejection; a second draw happens with probability below n / 2^64).
  uint64_t Below(uint64_t n);
  // True with probability p (p <= 0 never, p >= 1 always). Always consumes
  // exactly one draw, whatever p is.
  bool Bernoulli(double p);

 private:
  uint64_t s_[4];  // xoshiro256** state; never all zero
};

// Up to `count` of `items`, each drawn uniformly from those not drawn yet,
// in draw order (the cloud killing random running instances).
template <class T>
std::vector<T> DrawWithoutReplacement(std::vector<T> items, int count, Rng* rng) {
  std::vector<T> out;
  while (static_cast<int>(out.size()) < count && !items.empty()) {
    const size_t i = rng->Below(items.size());
    out.push_back(std::move(items[i]));
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return out;
}

// 64-bit FNV-1a of a name; stable across platforms and compilers.
uint64_t HashName(std::string_view name);

// The stream for `name` under `root_seed` (e.g. "<provider>/mp-0/launch").
Rng StreamFor(uint64_t root_seed, std::string_view name);

}  // namespace mpsim
