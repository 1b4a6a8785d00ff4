// ARM's subscription token buckets (docs/reference/providers.md §2.3, §4.2): a read bucket
// and a write bucket, each with a burst and a refill rate; an empty bucket
// answers 429 Too Many Requests with a Retry-After of the time until a token.
#pragma once

#include <algorithm>
#include <cstdint>

#include "api/time.h"

namespace mpsim::vmss {

class TokenBucket {
 public:
  TokenBucket(int32_t burst, double per_second)
      : burst_(burst), per_second_(per_second), tokens_(burst) {}
  // Spends one token at `now`. Returns 0 on success, else the Retry-After
  // (whole seconds, at least 1 s) the 429 carries. REQUIRES: now never decreases.
  Duration Take(Time now) {
    Refill(now);
    if (tokens_ >= 1) {
      tokens_ -= 1;
      return 0;
    }
    if (per_second_ <= 0) return kHour;  // a bucket that never refills
    const double wait_s = (1 - tokens_) / per_second_;
    return std::max<Duration>(kSecond, static_cast<Duration>(wait_s + 0.999999) * kSecond);
  }

 private:
  void Refill(Time now) {
    tokens_ = std::min<double>(burst_, tokens_ + per_second_ * ToSeconds(now - last_));
    last_ = now;
  }
  int32_t burst_;
  double per_second_;
  double tokens_;
  Time last_ = 0;
};

struct ArmThrottle {
  TokenBucket reads;
  TokenBucket writes;
};

}  // namespace mpsim::vmss
