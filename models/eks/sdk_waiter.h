// The AWS SDK's waiter schedule as CAPA's node-group waiters run it
// (docs/reference/aws-managed.md §1.4): smithy-go's ComputeDelay with the
// EKS waiters' 30 s minimum and 120 s maximum delay.
#pragma once

#include <cstdint>

#include "api/time.h"
#include "sim/random.h"

namespace mpsim::eks {

inline constexpr Duration kWaiterMinDelay = 30 * kSecond;
inline constexpr Duration kWaiterMaxDelay = 120 * kSecond;

// The delay after poll `attempt` (1 for the first) with `remaining` of the
// budget left: min · 2^(attempt-1) capped at max, drawn uniformly in
// [min, that) when it is above min, and shortened to leave min of the
// budget. REQUIRES: 0 < min <= max.
Duration ComputeDelay(int64_t attempt, Duration min, Duration max, Duration remaining, Rng* rng);

// The waiter gives up (after a poll) once less than the minimum delay of
// its budget remains.
inline bool WaiterExhausted(Duration remaining) {
  return remaining < kWaiterMinDelay || remaining <= 0;
}

}  // namespace mpsim::eks
