#include "app/expectations.h"

#include <cstdio>

#include "sim/duration.h"

namespace mpsim {
namespace {

const proto::PoolSummary* FindPool(const proto::RunSummary& s, const std::string& name) {
  for (const auto& p : s.pools()) {
    if (p.name() == name) return &p;
  }
  return nullptr;
}

std::string Secs(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", s);
  return buf;
}

ExpectationResult CheckPhase(const proto::Expectation& e, const proto::PoolSummary& p,
                             double horizon_s) {
  ExpectationResult r;
  const bool bounded = e.within() > 0;
  const double limit = bounded ? ToSeconds(e.within()) : horizon_s;
  r.name = e.pool() + " reaches " + e.phase() +
           (bounded ? " within " + FormatDuration(e.within()) : " before the horizon");
  for (const auto& t : p.phase_transitions()) {
    if (t.phase() == e.phase() && t.time_s() <= limit) {
      r.passed = true;
      r.message = "entered " + e.phase() + " at " + Secs(t.time_s());
      return r;
    }
  }
  r.message = "never entered " + e.phase() + " by " + Secs(limit) + " (final phase " +
              p.final_phase() + ")";
  return r;
}

ExpectationResult CheckConverged(const proto::Expectation& e, const proto::PoolSummary& p) {
  ExpectationResult r;
  r.name = e.pool() + (e.converged() ? " converges" : " never converges");
  r.passed = p.converged() == e.converged();
  r.message = p.converged() ? "converged in " + Secs(p.time_to_converge_s())
                            : "did not converge: " + p.not_converged_reason();
  return r;
}

}  // namespace

std::vector<ExpectationResult> CheckExpectations(const proto::Scenario& sc, const RunOutput& out) {
  std::vector<ExpectationResult> results;
  for (const auto& e : sc.spec().expect()) {
    const proto::PoolSummary* p = FindPool(out.summary, e.pool());
    if (p == nullptr) {
      results.push_back({e.pool(), false, "no pool named " + e.pool() + " in the run"});
      continue;
    }
    if (!e.phase().empty()) results.push_back(CheckPhase(e, *p, out.summary.horizon_s()));
    if (e.has_converged()) results.push_back(CheckConverged(e, *p));
  }
  return results;
}

}  // namespace mpsim
