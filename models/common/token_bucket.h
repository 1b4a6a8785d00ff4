// A cloud API's request-rate bucket: `burst` tokens, refilled at
// `per_second` whole tokens a second; a request finding less than one token
// is throttled. For the providers that cannot share one another's (a
// provider never includes another's folder).
#pragma once

#include <cassert>
#include <cstdint>

#include "api/time.h"

namespace mpsim {

class TokenBucket {
 public:
  // REQUIRES: burst >= 1, per_second >= 1. Starts full.
  TokenBucket(int32_t burst, int32_t per_second)
      : capacity_(int64_t{burst} * kUnit), per_second_(per_second), level_(capacity_) {
    assert(burst >= 1 && per_second >= 1);
  }
  // Spends one token at `now`; false when less than one is left.
  // REQUIRES: `now` never decreases between calls.
  bool Take(Time now) {
    Refill(now);
    if (level_ < kUnit) return false;
    level_ -= kUnit;
    return true;
  }

 private:
  // Millionths of a token, so that a refill over any number of microseconds
  // (Time's unit) is exact: per_second tokens a second is per_second
  // millionths a microsecond.
  static constexpr int64_t kUnit = 1'000'000;
  void Refill(Time now) {
    assert(now >= last_);
    const int64_t elapsed = now - last_;
    last_ = now;
    // Compared before multiplying: a long idle time would overflow the product.
    const int64_t missing = capacity_ - level_;
    level_ = elapsed >= (missing + per_second_ - 1) / per_second_ ? capacity_
                                                                  : level_ + elapsed * per_second_;
  }
  int64_t capacity_;
  int64_t per_second_;
  int64_t level_;
  Time last_ = 0;
};

}  // namespace mpsim
