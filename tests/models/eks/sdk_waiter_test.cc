// The SDK waiter's schedule (docs/reference/aws-managed.md §1.4, smithy-go
// ComputeDelay with the EKS waiters' 30 s / 120 s): 30 s after the first
// poll, then jitter in [30 s, 60 s), then in [30 s, 120 s), and a last delay
// that leaves 30 s of the budget.
#include "models/eks/sdk_waiter.h"

#include <gtest/gtest.h>

namespace mpsim::eks {
namespace {

TEST(EksSdkWaiter, FirstDelayIsTheMinimum) {
  Rng rng(3);
  EXPECT_EQ(ComputeDelay(1, kWaiterMinDelay, kWaiterMaxDelay, 30 * kMinute, &rng), 30 * kSecond);
}

TEST(EksSdkWaiter, SecondDelayIsJitteredUpToTwiceTheMinimum) {
  Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    const Duration d = ComputeDelay(2, kWaiterMinDelay, kWaiterMaxDelay, 30 * kMinute, &rng);
    EXPECT_GE(d, 30 * kSecond);
    EXPECT_LT(d, 60 * kSecond);
  }
}

TEST(EksSdkWaiter, LaterDelaysAreJitteredUpToTheMaximum) {
  Rng rng(5);
  Duration longest = 0;
  for (int attempt = 3; attempt < 40; ++attempt) {
    const Duration d = ComputeDelay(attempt, kWaiterMinDelay, kWaiterMaxDelay, 30 * kMinute, &rng);
    EXPECT_GE(d, 30 * kSecond);
    EXPECT_LT(d, 120 * kSecond);
    longest = std::max(longest, d);
  }
  EXPECT_GT(longest, 60 * kSecond) << "attempts past the third may wait beyond 60 s";
}

// remainingTime - delay <= minDelay: the delay leaves exactly minDelay.
TEST(EksSdkWaiter, LastDelayLeavesTheMinimumOfTheBudget) {
  Rng rng(3);
  EXPECT_EQ(ComputeDelay(1, kWaiterMinDelay, kWaiterMaxDelay, 50 * kSecond, &rng), 20 * kSecond);
  EXPECT_EQ(ComputeDelay(1, kWaiterMinDelay, kWaiterMaxDelay, 60 * kSecond, &rng), 30 * kSecond);
  EXPECT_EQ(ComputeDelay(1, kWaiterMinDelay, kWaiterMaxDelay, 0, &rng), 0);
}

TEST(EksSdkWaiter, StopsWhenLessThanTheMinimumRemains) {
  EXPECT_TRUE(WaiterExhausted(29 * kSecond));
  EXPECT_FALSE(WaiterExhausted(30 * kSecond));
  EXPECT_TRUE(WaiterExhausted(0));
}

}  // namespace
}  // namespace mpsim::eks
