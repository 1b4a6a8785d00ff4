// The AWS account's request buckets for the calls CAPA's AWSManagedMachinePool
// controller makes (docs/reference/aws-managed.md §2.7): a non-mutating and a
// mutating bucket for each of EKS and Auto Scaling. A call that finds its
// bucket empty fails with ThrottlingException (EKS) or Throttling (Auto Scaling).
#pragma once

#include <string>

#include "api/status.h"
#include "api/time.h"
#include "models/common/token_bucket.h"
#include "models/eks/eks_options.h"
#include "sim/recorder.h"

namespace mpsim::eks {

class EksApiThrottle {
 public:
  explicit EksApiThrottle(const ThrottleLimits& limits);
  // Spends a token for `api` ("eks:DescribeNodegroup",
  // "autoscaling:DescribeAutoScalingGroups") at `now`: "" when the call goes
  // through, else the error code it fails with.
  std::string Take(const std::string& api, Time now);

 private:
  TokenBucket eks_describe_, eks_mutating_, asg_describe_, asg_mutating_;
};

// One call of `pool`'s controller: counted in the pool's provider_api_calls
// and, with `throttle`, a Fault row and the error CAPA returns when its
// bucket is empty.
Status EksCall(EksApiThrottle* throttle, Recorder* rec, Time now, const std::string& pool,
               const std::string& api);

}  // namespace mpsim::eks
