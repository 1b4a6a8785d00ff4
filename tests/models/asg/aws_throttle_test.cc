// The account's API token buckets: refill arithmetic in whole microseconds,
// a burst beyond the bucket throttled, and which bucket each call spends.
#include "models/asg/aws_throttle.h"

#include <gtest/gtest.h>

namespace mpsim::asg {
namespace {

TEST(AwsTokenBucket, SpendsTheBurstThenRefusesUntilRefilled) {
  TokenBucket b(5, 2);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(b.Take(0)) << i;
  EXPECT_FALSE(b.Take(0));
  EXPECT_EQ(b.Available(0), 0);
  // 2 tokens a second: one after 500 ms, 1.5 after 750 ms.
  EXPECT_EQ(b.Available(499'999), 0);
  EXPECT_EQ(b.Available(500'000), 1);
  EXPECT_TRUE(b.Take(750'000));  // 1.5 - 1 = 0.5 left
  EXPECT_FALSE(b.Take(999'999));
  EXPECT_TRUE(b.Take(1'000'000));  // 0.5 + 0.5
  EXPECT_FALSE(b.Take(1'000'000));
}

// 3 tokens a second is 1/333,333.3 µs: no rounding may make a token early.
TEST(AwsTokenBucket, RefillIsExactAtAnyMicrosecond) {
  TokenBucket b(1, 3);
  ASSERT_TRUE(b.Take(0));
  EXPECT_EQ(b.Available(333'333), 0);
  EXPECT_EQ(b.Available(333'334), 1);
}

TEST(AwsTokenBucket, NeverHoldsMoreThanItsBurstAfterALongIdle) {
  TokenBucket b(3, 1'000'000);
  ASSERT_TRUE(b.Take(0));
  EXPECT_EQ(b.Available(1000 * kHour), 3);
}

TEST(AwsThrottle, AutoScalingDescribesBeyondTheBurstAreThrottling) {
  AwsThrottle t(ThrottleLimits{});
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(t.Take("autoscaling:DescribeAutoScalingGroups", 0), "") << i;
  }
  EXPECT_EQ(t.Take("autoscaling:DescribeAutoScalingGroups", 0), "Throttling");
  // Mutating calls and EC2 have buckets of their own.
  EXPECT_EQ(t.Take("autoscaling:UpdateAutoScalingGroup", 0), "");
  EXPECT_EQ(t.Take("ec2:DescribeLaunchTemplateVersions", 0), "");
  // 20 tokens a second: the next one 50 ms later.
  EXPECT_EQ(t.Take("autoscaling:DescribeAutoScalingGroups", 49'999), "Throttling");
  EXPECT_EQ(t.Take("autoscaling:DescribeAutoScalingGroups", 50'000), "");
}

TEST(AwsThrottle, Ec2MutationsBeyondTheBurstAreRequestLimitExceeded) {
  ThrottleLimits l;
  l.mutating_burst = 2;
  l.mutating_refill = 1;
  AwsThrottle t(l);
  EXPECT_EQ(t.Take("ec2:CreateLaunchTemplate", 0), "");
  EXPECT_EQ(t.Take("ec2:CreateLaunchTemplateVersion", 0), "");
  EXPECT_EQ(t.Take("ec2:DeleteLaunchTemplate", 0), "RequestLimitExceeded");
  EXPECT_EQ(t.Take("ec2:GetLaunchTemplateData", 0), "") << "Get* does not mutate";
  EXPECT_EQ(t.Take("ec2:DeleteLaunchTemplate", kSecond), "");
}

// The RunInstances resource bucket is its own: 1000 instances, then 2 a
// second (docs/reference/providers.md §1.3), whatever the request buckets hold.
TEST(AwsThrottle, InstanceLaunchesDrawTheirOwnResourceBucket) {
  AwsThrottle t(ThrottleLimits{});
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(t.TakeInstanceLaunch(0)) << i;
  EXPECT_FALSE(t.TakeInstanceLaunch(0));
  EXPECT_EQ(t.Take("ec2:CreateLaunchTemplate", 0), "") << "the request bucket is untouched";
  EXPECT_TRUE(t.TakeInstanceLaunch(kSecond));
  EXPECT_TRUE(t.TakeInstanceLaunch(kSecond));
  EXPECT_FALSE(t.TakeInstanceLaunch(kSecond));
}

}  // namespace
}  // namespace mpsim::asg
