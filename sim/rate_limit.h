// Per-key requeue timing of a controller's work queue: the exponential error
// backoff and Cluster API's "at most once per second" wrapper rules.
#pragma once

#include "api/time.h"

namespace mpsim {

struct RateLimitPolicy {
  // Minimum time between two reconcile starts of the same key (0: none).
  // CAPI util/controller/controller.go reconcileCache: 1 s.
  Duration min_interval = 0;
  // A returned RequeueAfter is raised to at least this (0: used verbatim).
  Duration min_requeue_after = 0;
  // Added to every backoff delay; CAPI's limiter adds its rateLimitInterval.
  Duration backoff_offset = 0;
  // delay(n) = offset + base * 2^n, n = consecutive failures counted from 0.
  Duration backoff_base = 5 * kMillisecond;
  // No backoff delay exceeds this (offset included).
  Duration backoff_cap = 1000 * kSecond;
  // controller-runtime's overall bucket, one for every key of the queue:
  // a token per `bucket_interval`, at most `bucket_burst` saved (0: none).
  Duration bucket_interval = 0;
  int bucket_burst = 0;

  // Cluster API core controllers (docs/reference/capi-core.md §1.2): 1 s start-to-start,
  // RequeueAfter >= 1 s, backoff 1 s + 5 ms * 2^n capped at 1000 s.
  static RateLimitPolicy ClusterApi();
  // controller-runtime's default limiter, used by every infrastructure
  // provider (docs/reference/providers.md §0.1): 5 ms * 2^n capped at 1000 s, and the
  // overall 10 qps / 100 burst bucket, which holds back the retries once
  // more than 100 keys fail within a few seconds (a controller of one
  // object per machine, its calls throttled).
  static RateLimitPolicy ControllerRuntimeDefault();

  // The delay after the (failures+1)-th consecutive failure, capped.
  // REQUIRES: failures >= 0.
  Duration Backoff(int failures) const;
};

// A rate.Limiter that every rate-limited requeue reserves a token of
// (client-go's BucketRateLimiter): the delay is how long the token takes to
// come, 0 while the burst lasts. Kept as the time the bucket would next be
// empty (GCRA), so it is exact in whole microseconds.
class OverallBucket {
 public:
  explicit OverallBucket(const RateLimitPolicy& p)
      : interval_(p.bucket_interval), tolerance_((p.bucket_burst - 1) * p.bucket_interval) {}
  // Reserves a token at `now`; 0 with no bucket.
  // REQUIRES: `now` never decreases between calls.
  Duration Reserve(Time now);

 private:
  Duration interval_;
  Duration tolerance_;  // how far ahead of `now` the burst may book
  Time next_ = 0;       // when the next token would come if none were saved
};

}  // namespace mpsim
