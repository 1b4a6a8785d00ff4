// Builds the simulated world a scenario describes (API servers, workload
// cluster, bootstrap provider, controller managers, infrastructure providers,
// scenario events) and runs it to the horizon.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "scenario/scenario.pb.h"
#include "sim/proto/pod_waits.pb.h"
#include "sim/proto/summary.pb.h"
#include "sim/recorder.h"

namespace mpsim {

struct RunOutput {
  proto::RunSummary summary;
  Recorder recorder;
  // Only for a run with pods (pod events or an autoscaler): pod_waits.json.
  std::optional<proto::PodWaits> pod_waits;
};

// Runs `scenario` with the given root seed. Returns false with *error set when
// the world cannot be built (e.g. a provider this build does not model) or a
// budget of spec.limits stopped the run (too many events, too much memory, a
// zero-delay event loop).
bool RunScenario(const proto::Scenario& scenario, uint64_t seed, RunOutput* out,
                 std::string* error);

}  // namespace mpsim
