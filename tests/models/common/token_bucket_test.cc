// The request-rate bucket the eks and rosa blocks share (models/common/token_bucket.h).
#include "models/common/token_bucket.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

// 3 tokens refilled at 2 a second: three at once, then one every 0.5 s.
TEST(CommonTokenBucket, BurstThenRefillRate) {
  TokenBucket b(3, 2);
  EXPECT_TRUE(b.Take(0));
  EXPECT_TRUE(b.Take(0));
  EXPECT_TRUE(b.Take(0));
  EXPECT_FALSE(b.Take(0));
  EXPECT_FALSE(b.Take(kSecond / 2 - 1));
  EXPECT_TRUE(b.Take(kSecond / 2));
  EXPECT_FALSE(b.Take(kSecond / 2));
}

// A long idle time fills the bucket to its burst, no more.
TEST(CommonTokenBucket, RefillStopsAtTheBurst) {
  TokenBucket b(2, 1);
  EXPECT_TRUE(b.Take(0));
  EXPECT_TRUE(b.Take(0));
  const Time later = 1'000'000 * kSecond;
  EXPECT_TRUE(b.Take(later));
  EXPECT_TRUE(b.Take(later));
  EXPECT_FALSE(b.Take(later));
}

}  // namespace
}  // namespace mpsim
