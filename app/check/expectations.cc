#include "app/check/expectations.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>

#include "sim/duration.h"

namespace mpsim {
namespace {

using Rows = TimelineRows;

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

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool Matches(const proto::TimelineMatch& m, const TimelineRow& r) {
  return (m.kind().empty() || m.kind() == r.object_kind) &&
         (m.object().empty() || m.object() == r.object) &&
         (m.field().empty() || m.field() == r.field) && (m.to().empty() || m.to() == r.to);
}

std::string Describe(const proto::TimelineMatch& m) {
  auto part = [](const std::string& v) { return v.empty() ? std::string("*") : v; };
  return part(m.kind()) + " " + part(m.object()) + " " + part(m.field()) + "=" + part(m.to());
}

// Rows of the pool, and rows that belong to no pool (the Cluster's).
bool OfPool(const TimelineRow& r, const std::string& pool) {
  return r.pool == pool || r.pool.empty();
}

// The index of the pool's first row matching `m` from `start` on, if any.
// Row order is the order things happened in, also within one instant.
std::optional<size_t> First(const Rows& rows, const std::string& pool,
                            const proto::TimelineMatch& m, size_t start = 0) {
  for (size_t i = start; i < rows.size(); ++i) {
    if (OfPool(rows[i], pool) && Matches(m, rows[i])) return i;
  }
  return std::nullopt;
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

ExpectationResult CheckNeverPhase(const proto::Expectation& e, const proto::PoolSummary& p) {
  ExpectationResult r{e.pool() + " never enters " + e.never_phase(), true, ""};
  for (const auto& t : p.phase_transitions()) {
    if (t.phase() == e.never_phase()) {
      r.passed = false;
      r.message = "entered " + e.never_phase() + " at " + Secs(t.time_s());
      return r;
    }
  }
  r.message = "phases: " + std::to_string(p.phase_transitions_size()) + " transitions, none to " +
              e.never_phase();
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

// readyReplicas as the timeline last recorded it at or before `at`.
int ReadyAt(const Rows& rows, const std::string& pool, Time at) {
  int ready = 0;
  for (const TimelineRow& r : rows) {
    if (r.time > at) break;
    if (r.pool == pool && r.object_kind == "MachinePool" && r.field == "readyReplicas") {
      ready = std::stoi(r.to);
    }
  }
  return ready;
}

ExpectationResult CheckReadyAt(const proto::Expectation& e, const RunOutput& out) {
  const bool at_end = !e.has_at();
  const Time at = at_end ? INT64_MAX : e.at();
  const int got = ReadyAt(out.recorder.rows(), e.pool(), at);
  ExpectationResult r;
  r.name = e.pool() + " has " + std::to_string(e.ready_replicas()) + " ready replicas " +
           (at_end ? "at the end" : "at " + FormatDuration(e.at()));
  r.passed = got == e.ready_replicas();
  r.message = "readyReplicas was " + std::to_string(got);
  return r;
}

ExpectationResult CheckMatchingP99(const proto::Expectation& e, const proto::PoolSummary& p) {
  ExpectationResult r;
  r.name = e.pool() + " matching latency p99 below " + FormatDuration(e.matching_p99_below());
  const auto& m = p.matching_latency_s();
  r.passed = m.count() > 0 && m.p99() < ToSeconds(e.matching_p99_below());
  r.message = m.count() == 0
                  ? "no node was matched"
                  : "p99 was " + Secs(m.p99()) + " over " + std::to_string(m.count()) + " nodes";
  return r;
}

// Per object, the last value of (kind, field) among the pool's rows.
std::map<std::string, std::string> LastValues(const Rows& rows, const std::string& pool,
                                              const std::string& kind, const std::string& field) {
  std::map<std::string, std::string> last;
  for (const TimelineRow& r : rows) {
    if (OfPool(r, pool) && r.object_kind == kind && r.field == field) last[r.object] = r.to;
  }
  return last;
}

// A Node deleted and registered again under its name (a VM recreated by its
// group) counts by its last event.
int CountNodes(const Rows& rows, const std::string& pool) {
  std::map<std::string, bool> alive;
  for (const TimelineRow& r : rows) {
    if (!OfPool(r, pool) || r.object_kind != "Node") continue;
    if (r.field == "registered" && r.to == "true") alive[r.object] = true;
    if (r.field == "deleted" && r.to == "true") alive[r.object] = false;
  }
  int n = 0;
  for (const auto& [node, up] : alive) n += up;
  return n;
}

// Every cloud model ends an instance's life with one of these states.
bool Gone(const std::string& state) {
  const std::string s = Lower(state);
  return s == "terminated" || s == "deleted" || s == "gone";
}

int CountInstances(const Rows& rows, const std::string& pool) {
  int n = 0;
  for (const auto& [inst, state] : LastValues(rows, pool, "Instance", "state")) {
    (void)inst;
    n += !Gone(state);
  }
  return n;
}

ExpectationResult CheckCount(const std::string& pool, const std::string& what, int want, int got) {
  return {pool + " has " + std::to_string(want) + " " + what + " at the end", want == got,
          "found " + std::to_string(got)};
}

// `never` with `after`: nothing matching `row` once `after` happened, which
// must happen, or the check would pass without testing anything.
ExpectationResult CheckNeverAfter(const proto::Expectation& e, const Rows& rows) {
  const std::optional<size_t> u = First(rows, e.pool(), e.after());
  const std::optional<size_t> later = u ? First(rows, e.pool(), e.row(), *u + 1) : std::nullopt;
  ExpectationResult r{
      e.pool() + ": " + Describe(e.row()) + " never happens after " + Describe(e.after()),
      u && !later, ""};
  if (!u) {
    r.message = "the other never happened";
  } else {
    r.message =
        "the other first at " + Secs(ToSeconds(rows[*u].time)) +
        (later ? ", this after it at " + Secs(ToSeconds(rows[*later].time)) : ", none after");
  }
  return r;
}

ExpectationResult CheckRow(const proto::Expectation& e, const Rows& rows) {
  const std::optional<size_t> t = First(rows, e.pool(), e.row());
  auto when = [&rows](const std::optional<size_t>& i) {
    return i ? Secs(ToSeconds(rows[*i].time)) : std::string("never");
  };
  ExpectationResult r;
  const std::string row = Describe(e.row());
  if (e.never() && e.has_after()) return CheckNeverAfter(e, rows);
  if (e.never()) {
    r = {e.pool() + ": " + row + " never happens", !t, ""};
    r.message = t ? "happened at " + when(t) : "no such row";
    return r;
  }
  const bool before = e.has_before();
  const proto::TimelineMatch& other = before ? e.before() : e.after();
  if (!before && !e.has_after()) {
    r = {e.pool() + ": " + row + " happens", t.has_value(), ""};
    r.message = t ? "at " + when(t) : "no such row";
    return r;
  }
  const std::optional<size_t> u = First(rows, e.pool(), other);
  r.name = e.pool() + ": " + row + (before ? " before " : " after ") + Describe(other);
  if (before) {  // its first occurrence precedes the other's first
    r.passed = t && (!u || *t < *u);
    r.message = "first at " + when(t) + ", the other first at " + when(u);
  } else {  // it occurs after the other first occurred
    const std::optional<size_t> later = u ? First(rows, e.pool(), e.row(), *u + 1) : std::nullopt;
    r.passed = later.has_value();
    r.message = "the other first at " + when(u) + ", this after it at " + when(later);
  }
  return r;
}

uint64_t Reconciles(const RunOutput& out, const std::string& pool) {
  uint64_t n = 0;
  for (const ReconcileSpan& s : out.recorder.reconciles()) {
    n += s.controller == "machinepool" && s.object == pool;
  }
  return n;
}

ExpectationResult CheckAtMost(const std::string& pool, const std::string& what, uint64_t limit,
                              uint64_t got) {
  return {pool + " makes at most " + std::to_string(limit) + " " + what, got <= limit,
          "made " + std::to_string(got)};
}

void CheckOne(const proto::Expectation& e, const proto::PoolSummary& p, const RunOutput& out,
              std::vector<ExpectationResult>* results) {
  const Rows& rows = out.recorder.rows();
  if (!e.phase().empty()) results->push_back(CheckPhase(e, p, out.summary.horizon_s()));
  if (e.has_never_phase()) results->push_back(CheckNeverPhase(e, p));
  if (e.has_converged()) results->push_back(CheckConverged(e, p));
  if (e.has_ready_replicas()) results->push_back(CheckReadyAt(e, out));
  if (e.has_matching_p99_below()) results->push_back(CheckMatchingP99(e, p));
  if (e.has_nodes())
    results->push_back(CheckCount(e.pool(), "nodes", e.nodes(), CountNodes(rows, e.pool())));
  if (e.has_instances()) {
    results->push_back(
        CheckCount(e.pool(), "instances", e.instances(), CountInstances(rows, e.pool())));
  }
  if (e.has_row()) results->push_back(CheckRow(e, rows));
  if (e.has_max_reconciles()) {
    results->push_back(
        CheckAtMost(e.pool(), "reconciles", e.max_reconciles(), Reconciles(out, e.pool())));
  }
  if (e.has_max_api_calls()) {
    results->push_back(
        CheckAtMost(e.pool(), "provider API calls", e.max_api_calls(), p.provider_api_calls()));
  }
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
    CheckOne(e, *p, out, &results);
  }
  return results;
}

}  // namespace mpsim
