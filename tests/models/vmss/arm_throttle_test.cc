// ARM's token buckets (docs/reference/providers.md §2.3): the burst, then 429 with a
// Retry-After of the time until a token, then the refill.
#include "models/vmss/arm_throttle.h"

#include <gtest/gtest.h>

namespace mpsim::vmss {
namespace {

TEST(TokenBucket, BurstThenRetryAfterUntilTheNextToken) {
  TokenBucket b(3, 0.5);  // one token every 2 s
  for (int i = 0; i < 3; ++i) EXPECT_EQ(b.Take(0), 0);
  EXPECT_EQ(b.Take(0), 2 * kSecond);
  EXPECT_EQ(b.Take(kSecond), kSecond);
  EXPECT_EQ(b.Take(2 * kSecond), 0);
}

TEST(TokenBucket, RetryAfterIsAtLeastOneSecond) {
  TokenBucket b(1, 100);
  EXPECT_EQ(b.Take(0), 0);
  EXPECT_EQ(b.Take(0), kSecond);
}

TEST(TokenBucket, RefillStopsAtTheBurst) {
  TokenBucket b(2, 10);
  EXPECT_EQ(b.Take(kHour), 0);
  EXPECT_EQ(b.Take(kHour), 0);
  EXPECT_GT(b.Take(kHour), 0);
}

}  // namespace
}  // namespace mpsim::vmss
