// libFuzzer target over a whole run: any input that loads is run with its
// horizon, pool sizes and budgets clamped so that one input takes
// milliseconds, then its outputs and expectations are computed. A run may
// fail only with an error message (a provider this build lacks, a budget).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/check/expectations.h"
#include "app/report/outputs.h"
#include "app/world.h"
#include "scenario/loader.h"

namespace {

using mpsim::kMinute;

constexpr int32_t kMaxReplicas = 20;

// Keeps the scenario's shape but bounds the work it asks for.
void Clamp(mpsim::proto::Scenario* sc) {
  auto* spec = sc->mutable_spec();
  spec->set_horizon(std::min<int64_t>(spec->horizon(), 20 * kMinute));
  for (auto& p : *spec->mutable_machine_pools()) {
    p.set_replicas(std::min(p.replicas(), kMaxReplicas));
  }
  for (auto& e : *spec->mutable_events()) {
    if (e.has_scale())
      e.mutable_scale()->set_replicas(std::min(e.scale().replicas(), kMaxReplicas));
  }
  auto* limits = spec->mutable_limits();
  limits->set_max_events(std::min<uint64_t>(limits->max_events(), 200'000));
  limits->set_max_events_per_instant(std::min<uint64_t>(limits->max_events_per_instant(), 50'000));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (std::count(text.begin(), text.end(), '*') > 8) return 0;  // as in loader_fuzz.cc
  mpsim::proto::Scenario sc;
  std::vector<mpsim::ScenarioError> errors;
  if (!mpsim::LoadScenarioFromString(text, "fuzz.yaml", {}, &sc, &errors)) return 0;
  Clamp(&sc);
  mpsim::RunOutput out;
  std::string error;
  if (!mpsim::RunScenario(sc, sc.spec().seed(), &out, &error)) {
    if (error.empty()) std::abort();
    return 0;
  }
  const size_t bytes = mpsim::SummaryJson(out.summary).size() +
                       mpsim::TimelineCsv(out.recorder).size() + mpsim::TraceJson(out).size();
  if (bytes == 0) std::abort();
  mpsim::CheckExpectations(sc, out);
  return 0;
}
