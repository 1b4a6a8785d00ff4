// A fast hash for the short strings that key hot maps (providerIDs, object
// names): eight bytes per step, where std::hash walks them one at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace mpsim {

// Not stable across builds or platforms and not for outputs: only the
// lookups of hashed maps use it, and no such map is iterated into an output.
inline uint64_t HashBytes(std::string_view s) {
  constexpr uint64_t kMul = 0x9e3779b97f4a7c15ULL;
  // The high and low halves of a full product, folded: every input bit
  // reaches every output bit (a plain multiply only carries bits upwards).
  const auto mix = [](uint64_t x) {
    const unsigned __int128 m = static_cast<unsigned __int128>(x) * 0xd6e8feb86659fd93ULL;
    return static_cast<uint64_t>(m) ^ static_cast<uint64_t>(m >> 64);
  };
  uint64_t h = s.size() * kMul;
  const char* p = s.data();
  size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = mix(h ^ w) + kMul;
  }
  if (n > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = mix(h ^ w) + kMul;
  }
  return mix(h);
}

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return HashBytes(s); }
};

// Byte equality without a call to memcmp for strings up to 16 bytes: the
// reconcile passes compare millions of names, condition types and annotation
// values a few bytes long each, and there the call costs more than the compare.
// Two loads that may overlap cover each length range exactly. Always inlined:
// a file with many compares (reconcileMachines has a dozen) led GCC to call
// it instead, and a call was what it is for avoiding.
[[gnu::always_inline]] inline bool BytesEqual(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (x == y) return true;
  const auto same = [&](size_t at, auto word) {
    decltype(word) u, v;
    std::memcpy(&u, x + at, sizeof u);
    std::memcpy(&v, y + at, sizeof v);
    return u == v;
  };
  if (n >= 8 && n <= 16) return same(0, uint64_t{}) && same(n - 8, uint64_t{});
  if (n >= 4 && n < 8) return same(0, uint32_t{}) && same(n - 4, uint32_t{});
  if (n < 4) {
    for (size_t i = 0; i < n; ++i) {
      if (x[i] != y[i]) return false;
    }
    return true;
  }
  return std::memcmp(x, y, n) == 0;
}

// Equality that first asks whether both views are the same bytes: a Node's
// providerID and the list entry it matches share one buffer, and the test
// then settles without reading it.
struct StringEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return BytesEqual(a, b); }
};

}  // namespace mpsim
