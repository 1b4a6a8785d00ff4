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

  // Cluster API core controllers (capi-core.md §1.2): 1 s start-to-start,
  // RequeueAfter >= 1 s, backoff 1 s + 5 ms * 2^n capped at 1000 s.
  static RateLimitPolicy ClusterApi();
  // controller-runtime's default limiter, used by every infrastructure
  // provider (providers.md §0.1): 5 ms * 2^n capped at 1000 s. Its overall
  // 10 qps / 100 burst bucket is not modelled: it only delays retries once
  // more than 100 keys fail at once, far beyond the few pools a run holds.
  static RateLimitPolicy ControllerRuntimeDefault();

  // The delay after the (failures+1)-th consecutive failure, capped.
  // REQUIRES: failures >= 0.
  Duration Backoff(int failures) const;
};

}  // namespace mpsim
