// One AWS request of a CAPA controller against the account's buckets, as both
// CAPA controllers here make it: counted in the pool's provider_api_calls,
// and a throttling fault and error when its bucket is empty.
#pragma once

#include <string>

#include "api/status.h"
#include "api/time.h"
#include "models/asg/aws_throttle.h"
#include "sim/recorder.h"

namespace mpsim::asg {

// OK when the call goes through (always, with no `throttle`); else the AWS
// error CAPA returns from the pass. `object` names the fault.
Status AwsCall(AwsThrottle* throttle, Recorder* rec, Time now, const std::string& pool,
               const std::string& object, const char* api);

}  // namespace mpsim::asg
