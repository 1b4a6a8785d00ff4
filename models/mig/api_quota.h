// A Compute API rate quota (docs/reference/providers.md §3.3): requests per project per
// minute, refilled at the start of the next synchronized minute; beyond it a
// call fails with 403 rateLimitExceeded.
#pragma once

#include <cstdint>

#include "api/time.h"

namespace mpsim::mig {

class ApiQuota {
 public:
  explicit ApiQuota(int32_t per_minute) : per_minute_(per_minute) {}
  // Spends one request at `now`; false when the minute's quota is used up.
  bool Take(Time now) {
    const int64_t minute = now / kMinute;
    if (minute != minute_) minute_ = minute, used_ = 0;
    if (used_ >= per_minute_) return false;
    ++used_;
    return true;
  }

 private:
  int32_t per_minute_;
  int64_t minute_ = -1;
  int32_t used_ = 0;
};

}  // namespace mpsim::mig
