// libFuzzer target over the scenario loader and validator: any bytes must give
// either a scenario or errors that name a problem of the input; never a
// crash, a sanitizer report, an exception or an "internal error".
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "scenario/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Alias expansion is bounded (4,000,000 nodes; tests/data/bad/alias-bomb.yaml)
  // and takes 0.2 s at the bound, but 10-15 s under ASan and coverage, which
  // starves the campaign once the corpus fills with such inputs: few aliases only.
  if (std::count(text.begin(), text.end(), '*') > 8) return 0;
  mpsim::proto::Scenario sc;
  std::vector<mpsim::ScenarioError> errors;
  const bool ok = mpsim::LoadScenarioFromString(text, "fuzz.yaml", {}, &sc, &errors);
  if (ok != errors.empty()) std::abort();
  for (const mpsim::ScenarioError& e : errors) {
    // An internal error is a bug of ours that the loader caught: still a finding.
    // (Only as the message's start: messages quote the input, which may say anything.)
    if (e.message.empty() || e.message.rfind("internal error in mpsim", 0) == 0) std::abort();
  }
  return 0;
}
