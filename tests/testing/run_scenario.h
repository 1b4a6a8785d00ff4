// Runs a scenario given as YAML text in this process, as `mpsim run` would
// with seed 1: for tests that read the run's recorder rather than its files.
#pragma once

#include <string>
#include <vector>

#include "app/world.h"
#include "scenario/loader.h"

namespace mpsim {

// False, with the first load error or the run's error in `error`, if the
// text does not load or the run fails.
inline bool RunScenarioText(const std::string& yaml, RunOutput* out, std::string* error) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  if (!LoadScenarioFromString(yaml, "scenario.yaml", {}, &sc, &errors)) {
    *error = errors.empty() ? "load failed" : errors[0].String();
    return false;
  }
  return RunScenario(sc, 1, out, error);
}

}  // namespace mpsim
