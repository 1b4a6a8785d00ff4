// The overlay `mpsim calibrate` writes: a partial scenario whose only
// top-level key is `spec`, holding the fitted delays under the keys a
// scenario has (docs/scenarios.md, spec.workloadCluster):
//   nodeRegistration, nodeReady, providerID.{setBy, ccmDelay}
// Each delay is written as the scenario's lognormal {median, p99} (to the
// millisecond) whichever family fitted best: the scenario's distributions
// have no gamma or Weibull, and the report says when one of them fitted
// better. A delay without a fit is left out, so the scenario's own value holds.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "app/calibrate/calibration.h"

namespace mpsim::calibrate {

// The `workloadCluster` mapping of the fitted delays (empty when none was fitted).
YAML::Node FittedWorkloadCluster(const Calibration& c);

// The whole overlay document, with a comment naming its source.
std::string OverlayText(const Calibration& c);

}  // namespace mpsim::calibrate
