#include "app/report/critical_path.h"

#include <algorithm>

#include "app/report/causal_graph.h"
#include "app/report/path_words.h"

namespace mpsim {
namespace {

// The pool's reconciles per controller, by start time (the recorder has them
// in the order they ended).
ControllerLog LogOf(const Recorder& rec, const std::string& pool) {
  ControllerLog log;
  for (size_t i : rec.ReconcilesOf(pool)) {
    const ReconcileSpan& s = rec.reconciles()[i];
    if (s.controller == "machinepool") {
      log.machinepool.push_back(s);
    } else if (log.infra.empty() || s.controller == log.infra) {
      log.infra = s.controller;
      log.infra_spans.push_back(s);
    }
  }
  auto by_start = [](const ReconcileSpan& a, const ReconcileSpan& b) { return a.start < b.start; };
  std::stable_sort(log.machinepool.begin(), log.machinepool.end(), by_start);
  std::stable_sort(log.infra_spans.begin(), log.infra_spans.end(), by_start);
  return log;
}

std::string EndWords(const PathQuery& q) {
  if (q.deleted) return "the MachinePool going away once its instances and Nodes were gone";
  if (q.converged) return "";
  return "still not converged at the end of the run: " + q.not_converged_reason;
}

// Adjacent steps with the same words (a cloud refusing the same instance
// again and again) read as one step.
void MergeRepeats(std::vector<PathStep>* steps) {
  std::vector<PathStep> out;
  std::vector<int> repeats;
  for (PathStep& s : *steps) {
    if (!out.empty() && out.back().what == s.what && out.back().object == s.object) {
      out.back().to = s.to;
      ++repeats.back();
      continue;
    }
    out.push_back(std::move(s));
    repeats.push_back(1);
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (repeats[i] > 1) out[i].what += ", " + std::to_string(repeats[i]) + " times";
  }
  *steps = std::move(out);
}

}  // namespace

CriticalPath ComputeCriticalPath(const Recorder& rec, const PathQuery& q) {
  CriticalPath path{q.start, q.end, q.converged, {}};
  const CausalGraph g(rec.RowsOf(q.pool), q.pool, q.start, q.end);
  const ControllerLog log = LogOf(rec, q.pool);
  const std::string end_words = EndWords(q);
  // Each vertex was added after its causes, so the walk back ends at the start.
  for (MomentId v = g.end(); v != g.start();) {
    const MomentId u = g.BindingCause(v);
    const Moment& cause = g.moment(u);
    const Moment& effect = g.moment(v);
    if (effect.time > cause.time) {
      StepWords w = DescribeStep(g, log, cause, effect, end_words);
      if (q.deleted && effect.kind == MomentKind::kEnd) w.kind = "deleted";
      const std::string& object = effect.kind == MomentKind::kEnd ? "" : effect.object();
      path.steps.push_back({cause.time, effect.time, w.kind, object, w.what});
    }
    v = u;
  }
  std::reverse(path.steps.begin(), path.steps.end());
  MergeRepeats(&path.steps);
  return path;
}

}  // namespace mpsim
