// Golden timelines, as Cluster API's rollout-planner tests keep golden logs:
// a scenario X.yaml may have X.golden.csv beside it, the timeline of its run
// at spec.seed; `check` compares against it, `check --update-golden` rewrites it.
#pragma once

#include <string>

#include "app/check/expectations.h"

namespace mpsim {

// X.yaml (or X.yml) -> X.golden.csv.
std::string GoldenPath(const std::string& scenario);

// Compares a run's timeline with the golden file; the message shows the first
// differing lines of each side with their line numbers.
ExpectationResult CompareGolden(const std::string& golden_path, const std::string& timeline);

}  // namespace mpsim
