// The AWS account's API token buckets (docs/reference/providers.md §1.3, §4.1): a call that
// finds its bucket empty fails with RequestLimitExceeded (EC2) or Throttling.
#pragma once

#include <cstdint>
#include <string_view>

#include "api/time.h"

namespace mpsim::asg {

// One bucket of `burst` tokens refilled at `per_second` whole tokens a second.
// It counts millionths of a token, so a refill over any number of
// microseconds is exact integer arithmetic (no floating-point time).
class TokenBucket {
 public:
  // REQUIRES: burst >= 1, per_second >= 1.
  TokenBucket(int32_t burst, int32_t per_second);
  // Spends one token at `now`; false when less than one is left.
  // REQUIRES: `now` never decreases between calls.
  bool Take(Time now);
  // Whole tokens in the bucket at `now`.
  int64_t Available(Time now);

 private:
  void Refill(Time now);
  int64_t capacity_;    // burst, in millionths of a token
  int64_t per_second_;  // tokens a second = millionths of a token a microsecond
  int64_t level_;       // millionths of a token
  Time last_ = 0;
};

// What `apiThrottling` sets. EC2's documented request-rate buckets; Auto
// Scaling publishes none, so it is given the same (docs/defaults.md).
struct ThrottleLimits {
  bool enabled = false;
  int32_t describe_burst = 100;  // ec2-api-throttling.html, non-mutating actions
  int32_t describe_refill = 20;
  int32_t mutating_burst = 200;  // ec2-api-throttling.html, mutating actions
  int32_t mutating_refill = 5;
  // RunInstances' resource bucket: one token per instance launched
  // (ec2-api-throttling.html, quoted in docs/reference/providers.md §1.3).
  int32_t run_instances_burst = 1000;
  int32_t run_instances_refill = 2;
};

// One account's buckets: a non-mutating and a mutating one per service.
class AwsThrottle {
 public:
  explicit AwsThrottle(const ThrottleLimits& limits);
  // Spends a token for `api` ("ec2:CreateLaunchTemplate",
  // "autoscaling:DescribeAutoScalingGroups") at `now`. Returns the error code
  // the call fails with, or "" when it goes through.
  std::string_view Take(std::string_view api, Time now);
  // Spends the RunInstances resource token of one instance a group launches
  // on the account's behalf; false when the bucket is empty.
  bool TakeInstanceLaunch(Time now) { return run_instances_.Take(now); }

 private:
  TokenBucket ec2_describe_, ec2_mutating_, asg_describe_, asg_mutating_, run_instances_;
};

}  // namespace mpsim::asg
