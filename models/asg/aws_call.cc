#include "models/asg/aws_call.h"

namespace mpsim::asg {

Status AwsCall(AwsThrottle* throttle, Recorder* rec, Time now, const std::string& pool,
               const std::string& object, const char* api) {
  rec->ProviderApiCall(pool, api);
  if (throttle == nullptr) return Status::Ok();
  const std::string_view code = throttle->Take(api, now);
  if (code.empty()) return Status::Ok();
  rec->Fault(now, pool, object, std::string(code));
  const char* message = code == "Throttling" ? "Rate exceeded" : "Request limit exceeded.";
  return Status::Throttled(std::string(code) + ": " + message + " (" + api + ")");
}

}  // namespace mpsim::asg
