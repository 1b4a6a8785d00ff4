// ARM's subscription token buckets as the `aks` block models them (the same
// model as the `vmss` block's, docs/reference/providers.md §2.3): a read and
// a write bucket, each with a burst and a refill rate; an empty bucket
// answers 429 Too Many Requests with a Retry-After.
#pragma once

#include <algorithm>
#include <cstdint>

#include "api/time.h"

namespace mpsim::aks {

class ArmBucket {
 public:
  ArmBucket(int32_t burst, double per_second)
      : burst_(burst), per_second_(per_second), tokens_(burst) {}
  // Spends one token at `now`: 0 on success, else the Retry-After (whole
  // seconds, at least 1 s). REQUIRES: now never decreases.
  Duration Take(Time now) {
    tokens_ = std::min<double>(burst_, tokens_ + per_second_ * ToSeconds(now - last_));
    last_ = now;
    if (tokens_ >= 1) {
      tokens_ -= 1;
      return 0;
    }
    if (per_second_ <= 0) return kHour;
    const double wait_s = (1 - tokens_) / per_second_;
    return std::max<Duration>(kSecond, static_cast<Duration>(wait_s + 0.999999) * kSecond);
  }

 private:
  int32_t burst_;
  double per_second_;
  double tokens_;
  Time last_ = 0;
};

struct ArmBuckets {
  ArmBucket reads;
  ArmBucket writes;
};

}  // namespace mpsim::aks
