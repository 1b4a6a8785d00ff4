#include "models/eks/sdk_waiter.h"

#include <cmath>

namespace mpsim::eks {

Duration ComputeDelay(int64_t attempt, Duration min, Duration max, Duration remaining, Rng* rng) {
  if (remaining <= 0) return 0;
  const auto ceiling =
      static_cast<int64_t>(std::log(static_cast<double>(max / min)) / std::log(2.0) + 1);
  Duration delay = attempt > ceiling ? max : min * (Duration{1} << (attempt - 1));
  if (delay != min)
    delay = min + static_cast<Duration>(rng->Below(static_cast<uint64_t>(delay - min)));
  if (remaining - delay <= min) delay = remaining - min;
  return delay;
}

}  // namespace mpsim::eks
