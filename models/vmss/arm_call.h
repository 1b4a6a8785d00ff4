// One ARM request of a CAPZ controller against the subscription's buckets,
// as both CAPZ controllers here make it: counted in the pool's
// provider_api_calls, and a TooManyRequests fault when the bucket is empty.
#pragma once

#include <string>

#include "models/vmss/arm_throttle.h"
#include "sim/recorder.h"

namespace mpsim::vmss {

// Returns 0 when accepted, else the 429's Retry-After, which CAPZ requeues
// with instead of backing off (docs/reference/providers.md §2.3). `object` names the fault.
inline Duration ArmCall(ArmThrottle* throttle, Recorder* rec, Time now, const std::string& pool,
                        const std::string& object, const char* api, bool write) {
  rec->ProviderApiCall(pool, api);
  TokenBucket& bucket = write ? throttle->writes : throttle->reads;
  const Duration wait = bucket.Take(now);
  if (wait > 0) rec->Fault(now, pool, object, "TooManyRequests");
  return wait;
}

}  // namespace mpsim::vmss
