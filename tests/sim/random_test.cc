#include "sim/random.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

namespace mpsim {
namespace {

// A second, deliberately naive transcription of Vigna's reference code
// (splitmix64.c and xoshiro256starstar.c), kept apart from sim/random.cc so a
// change there cannot silently move the golden values below.
struct ReferenceXoshiro {
  uint64_t s[4];
  static uint64_t SplitMix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  explicit ReferenceXoshiro(uint64_t seed) {
    for (uint64_t& w : s) w = SplitMix(seed);
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = Rotl(s[3], 45);
    return result;
  }
};

// Golden values. They were also computed by an independent Python
// transcription of the same reference algorithms (64-bit masked integers).
// If these change, every recorded simulation result changes with them.
constexpr uint64_t kRng1[5] = {0xb3f2af6d0fc710c5ULL, 0x853b559647364ceaULL, 0x92f89756082a4514ULL,
                               0x642e1c7bc266a3a7ULL, 0xb27a48e29a233673ULL};
constexpr uint64_t kStream42Launch[5] = {0x9ec97588e26e6cb7ULL, 0x6963d9c260baac9fULL,
                                         0x69347d37aa551fd4ULL, 0xfb14629c34d53c0eULL,
                                         0x7fb893254af129a3ULL};

TEST(RandomTest, GoldenRng1) {
  Rng rng(1);
  for (const uint64_t want : kRng1) EXPECT_EQ(rng.Next(), want);
}

TEST(RandomTest, GoldenStreamFor) {
  Rng rng = StreamFor(42, "asg/mp-0/launch");
  for (const uint64_t want : kStream42Launch) EXPECT_EQ(rng.Next(), want);
}

TEST(RandomTest, GoldenValuesMatchReferenceTranscription) {
  ReferenceXoshiro plain(1);
  for (const uint64_t want : kRng1) EXPECT_EQ(plain.Next(), want);
  uint64_t root = 42;
  ReferenceXoshiro stream(ReferenceXoshiro::SplitMix(root) ^ 0x95d05c649ca90f07ULL);
  for (const uint64_t want : kStream42Launch) EXPECT_EQ(stream.Next(), want);
}

TEST(RandomTest, SplitMixMatchesPublishedFirstOutput) {
  // Vigna's splitmix64 from state 0 first returns 0xe220a8397b1dcdaf.
  uint64_t state = 0;
  EXPECT_EQ(ReferenceXoshiro::SplitMix(state), 0xe220a8397b1dcdafULL);
}

TEST(RandomTest, HashNameIsFnv1a64) {
  // Published FNV-1a 64 test vectors for "" and "a".
  EXPECT_EQ(HashName(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(HashName("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(HashName("asg/mp-0/launch"), 0x95d05c649ca90f07ULL);
}

TEST(RandomTest, SameSeedSameStream) {
  Rng a(7), b(7);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.Next(), b.Next());
}

TEST(RandomTest, StreamsWithDifferentNamesDiffer) {
  Rng a = StreamFor(42, "asg/mp-0/launch");
  Rng b = StreamFor(42, "asg/mp-0/delete");
  Rng c = StreamFor(43, "asg/mp-0/launch");
  const uint64_t first = a.Next();
  EXPECT_NE(first, b.Next());
  EXPECT_NE(first, c.Next());
}

TEST(RandomTest, Uniform01InHalfOpenUnitInterval) {
  Rng rng(3);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    const double u = rng.Uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / 100000, 0.5, 0.01);
}

TEST(RandomTest, Uniform01UsesTopBits) {
  Rng rng(1);
  EXPECT_EQ(rng.Uniform01(), static_cast<double>(kRng1[0] >> 11) * 0x1.0p-53);
}

TEST(RandomTest, BelowStaysInBoundsAndCoversRange) {
  Rng rng(5);
  std::vector<int> seen(7, 0);
  for (int i = 0; i < 70000; ++i) {
    const uint64_t v = rng.Below(7);
    ASSERT_LT(v, 7u);
    ++seen[v];
  }
  for (const int count : seen) EXPECT_NEAR(count, 10000, 500);
  EXPECT_EQ(rng.Below(1), 0u);
}

TEST(RandomTest, BelowHandlesHugeBounds) {
  Rng rng(9);
  const uint64_t n = (1ULL << 63) + 1;  // rejection is likeliest here
  for (int i = 0; i < 1000; ++i) ASSERT_LT(rng.Below(n), n);
}

TEST(RandomTest, BernoulliEdgesAndDrawCount) {
  Rng a(11), b(11);
  EXPECT_FALSE(a.Bernoulli(0));
  EXPECT_FALSE(a.Bernoulli(-1));
  EXPECT_TRUE(a.Bernoulli(1));
  EXPECT_TRUE(a.Bernoulli(2));
  for (int i = 0; i < 4; ++i) b.Next();
  EXPECT_EQ(a.Next(), b.Next());  // each call consumed exactly one draw
}

TEST(RandomTest, BernoulliFrequency) {
  Rng rng(13);
  int hits = 0;
  for (int i = 0; i < 100000; ++i) hits += rng.Bernoulli(0.3) ? 1 : 0;
  EXPECT_NEAR(hits, 30000, 600);
}

}  // namespace
}  // namespace mpsim

namespace mpsim {
namespace {

TEST(DrawWithoutReplacement, DistinctItemsUpToCountAndNoMoreThanThereAre) {
  Rng rng = StreamFor(7, "draw");
  const std::vector<int> three = DrawWithoutReplacement(std::vector<int>{1, 2, 3, 4, 5}, 3, &rng);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(std::set<int>(three.begin(), three.end()).size(), 3u);
  for (int v : three) EXPECT_TRUE(v >= 1 && v <= 5) << v;
  EXPECT_EQ(DrawWithoutReplacement(std::vector<int>{1, 2}, 5, &rng).size(), 2u);
  EXPECT_TRUE(DrawWithoutReplacement(std::vector<int>{}, 1, &rng).empty());
}

}  // namespace
}  // namespace mpsim
