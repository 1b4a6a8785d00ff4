#include "sim/rate_limit.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace mpsim {

RateLimitPolicy RateLimitPolicy::ClusterApi() {
  RateLimitPolicy p;
  // util/controller/builder.go: rateLimitInterval = 1s (lower values ignored);
  // newTypedItemExponentialFailureRateLimiter(rateLimitInterval, 5ms, 1000s).
  p.min_interval = kSecond;
  p.min_requeue_after = kSecond;
  p.backoff_offset = kSecond;
  p.backoff_base = 5 * kMillisecond;
  p.backoff_cap = 1000 * kSecond;
  return p;
}

RateLimitPolicy RateLimitPolicy::ControllerRuntimeDefault() {
  // client-go workqueue DefaultTypedControllerRateLimiter: per-item
  // NewTypedItemExponentialFailureRateLimiter(5ms, 1000s).
  RateLimitPolicy p;
  p.backoff_base = 5 * kMillisecond;
  p.backoff_cap = 1000 * kSecond;
  // DefaultTypedControllerRateLimiter's BucketRateLimiter: rate.NewLimiter(10, 100).
  p.bucket_interval = 100 * kMillisecond;
  p.bucket_burst = 100;
  return p;
}

Duration RateLimitPolicy::Backoff(int failures) const {
  if (failures < 0 || backoff_base < 0) {
    std::fprintf(stderr, "mpsim bug: RateLimitPolicy::Backoff(%d) with base %lld\n", failures,
                 static_cast<long long>(backoff_base));
    std::abort();
  }
  const Duration room = backoff_cap - backoff_offset;
  if (room <= 0) return backoff_cap;
  // base * 2^n > room  <=>  base > floor(room / 2^n): compared this way so
  // that a long failure streak never overflows (upstream caps the float).
  if (failures >= 62 || backoff_base > (room >> failures)) return backoff_cap;
  return backoff_offset + (backoff_base << failures);
}

Duration OverallBucket::Reserve(Time now) {
  if (interval_ <= 0) return 0;
  const Time next = std::max(next_, now);
  const Duration wait = std::max<Duration>(next - tolerance_ - now, 0);
  next_ = next + interval_;
  return wait;
}

}  // namespace mpsim
