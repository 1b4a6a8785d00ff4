#include "models/rosa/rosa_api_throttle.h"

namespace mpsim::rosa {

std::string RosaApiThrottle::Take(const std::string& api, Time now) {
  const bool ocm = api.starts_with("ocm:");
  if ((ocm ? ocm_ : ec2_describe_).Take(now)) return "";
  return ocm ? "OCM.TooManyRequests" : "RequestLimitExceeded";
}

Status RosaCall(RosaApiThrottle* throttle, Recorder* rec, Time now, const std::string& pool,
                const std::string& api) {
  rec->ProviderApiCall(pool, api);
  if (throttle == nullptr) return Status::Ok();
  const std::string code = throttle->Take(api, now);
  if (code.empty()) return Status::Ok();
  rec->Fault(now, pool, pool, code);
  if (code == "RequestLimitExceeded") {
    return Status::Throttled("RequestLimitExceeded: Request limit exceeded. (" + api + ")");
  }
  // OCM's error text for a 429 is not in the reference: the status alone.
  return Status::Throttled("429 Too Many Requests (" + api + ")");
}

}  // namespace mpsim::rosa
