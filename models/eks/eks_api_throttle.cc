#include "models/eks/eks_api_throttle.h"

#include <string_view>

namespace mpsim::eks {
namespace {

// EC2's rule for its own API (docs/reference/providers.md §4.1), taken for
// EKS and Auto Scaling too: Describe*, List* and Get* are non-mutating.
bool NonMutating(std::string_view action) {
  for (std::string_view prefix : {"Describe", "List", "Get"}) {
    if (action.starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace

EksApiThrottle::EksApiThrottle(const ThrottleLimits& l)
    : eks_describe_(l.describe_burst, l.describe_refill),
      eks_mutating_(l.mutating_burst, l.mutating_refill),
      asg_describe_(l.describe_burst, l.describe_refill),
      asg_mutating_(l.mutating_burst, l.mutating_refill) {}

std::string EksApiThrottle::Take(const std::string& api, Time now) {
  const size_t colon = api.find(':');
  const std::string_view service = std::string_view(api).substr(0, colon);
  const std::string_view action =
      colon == std::string::npos ? std::string_view(api) : std::string_view(api).substr(colon + 1);
  const bool eks = service == "eks";
  const bool read = NonMutating(action);
  TokenBucket& b =
      eks ? (read ? eks_describe_ : eks_mutating_) : (read ? asg_describe_ : asg_mutating_);
  if (b.Take(now)) return "";
  // The EKS API's ThrottlingException; Auto Scaling answers Throttling
  // (docs/reference/aws-managed.md §2.7, docs/reference/providers.md §1.3).
  return eks ? "ThrottlingException" : "Throttling";
}

Status EksCall(EksApiThrottle* throttle, Recorder* rec, Time now, const std::string& pool,
               const std::string& api) {
  rec->ProviderApiCall(pool, api);
  if (throttle == nullptr) return Status::Ok();
  const std::string code = throttle->Take(api, now);
  if (code.empty()) return Status::Ok();
  rec->Fault(now, pool, pool, code);
  return Status::Throttled(code + ": Rate exceeded (" + api + ")");
}

}  // namespace mpsim::eks
