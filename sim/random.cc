#include "sim/random.h"

#include <cassert>

namespace mpsim {
namespace {

constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// SplitMix64 (Steele, Lea, Flood; Vigna's reference constants). Advances *state.
uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

Rng::Rng(uint64_t seed) {
  // SplitMix64 never yields four zero words in a row, so every seed (zero
  // included) gives xoshiro a valid non-zero state.
  uint64_t sm = seed;
  for (uint64_t& word : s_) word = SplitMix64(&sm);
}

uint64_t Rng::Next() {
  // xoshiro256** 1.0 (Blackman and Vigna, 2018).
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

double Rng::Uniform01() {
  // The top bits of xoshiro256** are its strongest; 53 fill a double exactly.
  return static_cast<double>(Next() >> 11) * 0x1.0p-53;
}

uint64_t Rng::Below(uint64_t n) {
  assert(n > 0);
  // Lemire's multiply-shift with rejection: the low word of the product falls
  // below `threshold` for exactly the draws that would bias the result.
  unsigned __int128 m = static_cast<unsigned __int128>(Next()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(Next()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

bool Rng::Bernoulli(double p) {
  // Draw even when the outcome is certain, so a stream's position does not
  // depend on p (changing a probability must not shift later draws).
  const double u = Uniform01();
  return u < p;
}

uint64_t HashName(std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64-bit offset basis
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;  // FNV 64-bit prime
  }
  return h;
}

Rng StreamFor(uint64_t root_seed, std::string_view name) {
  // Mixing the root first keeps consecutive sweep seeds (1, 2, 3...) from
  // cancelling against names whose hashes differ only in low bits.
  uint64_t sm = root_seed;
  return Rng(SplitMix64(&sm) ^ HashName(name));
}

}  // namespace mpsim
