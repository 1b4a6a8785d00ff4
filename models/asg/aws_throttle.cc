#include "models/asg/aws_throttle.h"

#include <cassert>

namespace mpsim::asg {

TokenBucket::TokenBucket(int32_t burst, int32_t per_second)
    : capacity_(int64_t{burst} * 1'000'000), per_second_(per_second), level_(capacity_) {
  assert(burst >= 1 && per_second >= 1);
}

bool TokenBucket::Take(Time now) {
  Refill(now);
  if (level_ < 1'000'000) return false;
  level_ -= 1'000'000;
  return true;
}

int64_t TokenBucket::Available(Time now) {
  Refill(now);
  return level_ / 1'000'000;
}

void TokenBucket::Refill(Time now) {
  assert(now >= last_);
  const int64_t elapsed = now - last_;
  last_ = now;
  // Compared before multiplying: a long idle time would overflow the product.
  const int64_t missing = capacity_ - level_;
  if (elapsed >= (missing + per_second_ - 1) / per_second_) {
    level_ = capacity_;
  } else {
    level_ += elapsed * per_second_;
  }
}

namespace {

// "Non-mutating actions: Describe*, List*, Search*, Get*" share the request
// bucket of their kind (ec2-api-throttling.html); the rest mutate.
bool NonMutating(std::string_view action) {
  for (std::string_view prefix : {"Describe", "List", "Search", "Get"}) {
    if (action.starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace

AwsThrottle::AwsThrottle(const ThrottleLimits& l)
    : ec2_describe_(l.describe_burst, l.describe_refill),
      ec2_mutating_(l.mutating_burst, l.mutating_refill),
      asg_describe_(l.describe_burst, l.describe_refill),
      asg_mutating_(l.mutating_burst, l.mutating_refill),
      run_instances_(l.run_instances_burst, l.run_instances_refill) {}

std::string_view AwsThrottle::Take(std::string_view api, Time now) {
  const size_t colon = api.find(':');
  const std::string_view service = api.substr(0, colon);
  const std::string_view action = colon == std::string_view::npos ? api : api.substr(colon + 1);
  const bool ec2 = service == "ec2";
  const bool read = NonMutating(action);
  TokenBucket& b =
      ec2 ? (read ? ec2_describe_ : ec2_mutating_) : (read ? asg_describe_ : asg_mutating_);
  if (b.Take(now)) return "";
  // EC2 answers RequestLimitExceeded, Auto Scaling Throttling "Rate exceeded"
  // (docs/reference/providers.md §1.3).
  return ec2 ? "RequestLimitExceeded" : "Throttling";
}

}  // namespace mpsim::asg
