// RankSet: counts and k-th picks over a shrinking sorted set.
#include "util/rank_set.h"

#include <gtest/gtest.h>

#include <vector>

namespace mpsim {
namespace {

// Every member left, in order, through Kth, and the count up to each.
void ExpectLeft(const RankSet& s, const std::vector<uint32_t>& left) {
  ASSERT_EQ(s.size(), left.size());
  for (size_t k = 0; k < left.size(); ++k) {
    EXPECT_EQ(s.Kth(k), left[k]) << k;
    EXPECT_EQ(s.CountUpTo(left[k]), k + 1) << k;
  }
}

TEST(RankSet, CountsAndPicksWhatIsLeft) {
  RankSet s({2, 3, 5, 7, 11, 13});
  ExpectLeft(s, {2, 3, 5, 7, 11, 13});
  EXPECT_EQ(s.CountUpTo(1), 0u);
  EXPECT_EQ(s.CountUpTo(8), 4u);  // not a member: those below it
  s.Remove(5);
  s.Remove(2);
  ExpectLeft(s, {3, 7, 11, 13});
  EXPECT_EQ(s.CountUpTo(6), 1u);
  for (uint32_t x : {3u, 7u, 11u, 13u}) s.Remove(x);
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.CountUpTo(100), 0u);
}

// Sizes that are not powers of two, so the pick's descent must stop at the
// tree's end.
TEST(RankSet, KthMatchesTheSurvivorsAtEverySize) {
  for (uint32_t n = 1; n <= 40; ++n) {
    std::vector<uint32_t> all;
    for (uint32_t i = 0; i < n; ++i) all.push_back(3 * i + 1);
    RankSet s(all);
    std::vector<uint32_t> left = all;
    for (uint32_t i = 0; i < n; i += 2) {
      s.Remove(all[i]);
      std::erase(left, all[i]);
    }
    SCOPED_TRACE(n);
    ExpectLeft(s, left);
  }
}

TEST(RankSet, KthAcrossInterleavedSets) {
  RankSet evens({0, 2, 4, 6, 8});
  RankSet odds({1, 3, 5, 7, 9});
  evens.Remove(4);
  odds.Remove(1);
  const std::vector<uint32_t> want = {0, 2, 3, 5, 6, 7, 8, 9};
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(KthAcross({&evens, &odds}, k), want[k]) << k;
  }
  EXPECT_EQ(KthAcross({&odds}, 0), 3u);
}

}  // namespace
}  // namespace mpsim
