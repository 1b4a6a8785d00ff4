// Checks a scenario's `expect` list against the result of a run; each
// expectation yields a pass/fail line a person can read.
#pragma once

#include <string>
#include <vector>

#include "app/world.h"

namespace mpsim {

struct ExpectationResult {
  std::string name;  // e.g. "mp-0 reaches Running within 20m"
  bool passed = false;
  std::string message;  // what was observed
};

std::vector<ExpectationResult> CheckExpectations(const proto::Scenario& sc, const RunOutput& out);

}  // namespace mpsim
