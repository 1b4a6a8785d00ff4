// Request buckets of the APIs CAPA's ROSAMachinePool controller calls
// (docs/reference/aws-managed.md §3.11): OCM's NodePool endpoints, which
// answer an empty bucket with 429 Too Many Requests, and EC2's non-mutating
// bucket (DescribeInstances), which answers RequestLimitExceeded.
#pragma once

#include <string>

#include "api/status.h"
#include "api/time.h"
#include "models/common/token_bucket.h"
#include "models/rosa/rosa_options.h"
#include "sim/recorder.h"

namespace mpsim::rosa {

class RosaApiThrottle {
 public:
  explicit RosaApiThrottle(const ThrottleLimits& limits)
      : ocm_(limits.ocm_burst, limits.ocm_refill),
        ec2_describe_(limits.describe_burst, limits.describe_refill) {}
  // Spends a token for `api` ("ocm:GetNodePool", "ec2:DescribeInstances") at
  // `now`: "" when the call goes through, else the error code it fails with.
  std::string Take(const std::string& api, Time now);

 private:
  TokenBucket ocm_, ec2_describe_;
};

// One call of `pool`'s controller: counted in the pool's provider_api_calls
// and, with `throttle`, a Fault row and the error CAPA returns when its
// bucket is empty.
Status RosaCall(RosaApiThrottle* throttle, Recorder* rec, Time now, const std::string& pool,
                const std::string& api);

}  // namespace mpsim::rosa
