#include "app/report/explain.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

#include "app/report/text_report.h"

namespace mpsim {
namespace {

// A segment this large is what a reader should look at first.
constexpr double kBigShare = 0.20;

std::string Fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

void Header(std::ostream& os, const proto::PoolSummary& p) {
  const proto::CriticalPath& c = p.critical_path();
  os << "why pool " << p.name() << " took " << Fmt("%.1fs", c.total_s()) << ": from the last "
     << "spec change at " << Fmt("%.1fs", c.from_s()) << " to "
     << (c.converged() ? "convergence" : "the end of the run (not converged)") << " at "
     << Fmt("%.1fs", c.to_s()) << ", the chain of waits that ended last:\n";
}

// A long path repeats itself (a rolling update is N times the same few
// waits): the share per kind of wait says what dominates.
void PrintByKind(std::ostream& os, const proto::CriticalPath& c) {
  if (c.segments_size() < 8) return;
  std::map<std::string, double> shares;
  for (const proto::PathSegment& s : c.segments()) shares[s.kind()] += s.share();
  std::vector<std::pair<double, std::string>> order;
  for (const auto& [kind, share] : shares) order.emplace_back(-share, kind);
  std::sort(order.begin(), order.end());
  os << "  by kind of wait:";
  for (size_t i = 0; i < order.size() && i < 5; ++i) {
    os << (i ? ", " : " ") << order[i].second << Fmt(" %.1f%%", -100 * order[i].first);
  }
  os << "\n";
}

const proto::PoolPodWait* FindPodWait(const proto::PodWaits& pods, const std::string& pool) {
  for (const proto::PoolPodWait& w : pods.pools()) {
    if (w.pool() == pool) return &w;
  }
  return nullptr;
}

// "(the autoscaler's scale-up of mp-0 from 1 to 25 at 310.0s: 96 of 96 pending pods)"
std::string ScaleUpWords(const proto::PoolPodWait& w) {
  if (!w.has_scale_up()) return " (before any scale-up of " + w.pool() + " by the autoscaler)";
  const proto::AutoscalerDecision& d = w.scale_up();
  const size_t colon = d.what().find(": ");
  const std::string reason = colon == std::string::npos ? "" : ": " + d.what().substr(colon + 2);
  return " (the autoscaler's scale-up of " + w.pool() + " from " + d.from_replicas() + " to " +
         d.to_replicas() + " at " + Fmt("%.1fs", d.time_s()) + reason + ")";
}

// What the node was doing while the pod waited: when it came and why.
std::string NodeWords(const proto::PoolPodWait& w) {
  std::string s = w.has_launched_at_s()
                      ? ", launched at " + Fmt("%.1fs", w.launched_at_s()) + ScaleUpWords(w)
                      : ", its launch not in the timeline";
  if (!w.has_ready_at_s()) return s;
  if (w.ready_at_s() <= w.pending_since_s()) {
    return s + ", already Ready at " + Fmt("%.1fs", w.ready_at_s()) +
           ", before the pod was pending";
  }
  s += " and Ready at " + Fmt("%.1fs", w.ready_at_s());
  if (!w.has_node_ref_at_s() || w.node_ref_at_s() <= w.ready_at_s()) return s;
  return s + ", then listed in " + w.pool() + "'s nodeRefs at " + Fmt("%.1fs", w.node_ref_at_s()) +
         ", when Cluster API lifted its uninitialized taint";
}

}  // namespace

void FillCriticalPath(const CriticalPath& path, proto::CriticalPath* out) {
  const Duration total = path.end - path.start;
  out->set_from_s(ToSeconds(path.start));
  out->set_to_s(ToSeconds(path.end));
  out->set_total_s(ToSeconds(total));
  out->set_converged(path.converged);
  for (const PathStep& s : path.steps) {
    proto::PathSegment* seg = out->add_segments();
    seg->set_from_s(ToSeconds(s.from));
    seg->set_to_s(ToSeconds(s.to));
    seg->set_duration_s(ToSeconds(s.to - s.from));
    seg->set_share(total > 0 ? static_cast<double>(s.to - s.from) / static_cast<double>(total)
                             : 0.0);
    seg->set_kind(s.kind);
    seg->set_object(s.object);
    seg->set_what(s.what);
  }
}

const proto::PoolSummary* FindPool(const proto::RunSummary& s, const std::string& pool) {
  for (const proto::PoolSummary& p : s.pools()) {
    if (p.name() == pool) return &p;
  }
  return nullptr;
}

void PrintExplanation(std::ostream& os, const proto::PoolSummary& p, bool color,
                      const proto::PodWaits* pods) {
  Header(os, p);
  char line[96];
  std::snprintf(line, sizeof line, "  %6s %9s %9s %9s  %s\n", "share", "wait", "from", "to",
                "waiting for");
  os << line;
  for (const proto::PathSegment& s : p.critical_path().segments()) {
    std::snprintf(line, sizeof line, "  %5.1f%% %8.1fs %8.1fs %8.1fs  ", 100 * s.share(),
                  s.duration_s(), s.from_s(), s.to_s());
    const bool big = color && s.share() >= kBigShare;
    os << line << (big ? "\033[1m" : "") << s.what() << (big ? "\033[0m" : "") << "\n";
  }
  if (p.critical_path().segments_size() == 0) os << "  (nothing to wait for)\n";
  PrintByKind(os, p.critical_path());
  if (pods != nullptr) PrintPodWaits(os, *pods, p.name());
  if (p.last_errors_size() == 0) return;
  os << "failed reconciles of pool " << p.name() << "'s objects, by controller:\n";
  PrintLastErrors(os, p);
}

void PrintPodWaits(std::ostream& os, const proto::PodWaits& pods, const std::string& pool) {
  const proto::PoolPodWait* w = FindPodWait(pods, pool);
  if (w == nullptr) return;
  if (w->pod().empty()) {
    os << "no pod was bound to a node of pool " << pool << "\n";
  } else {
    os << "slowest pod on pool " << pool << ": " << w->pod() << " waited "
       << Fmt("%.1fs", w->wait_s()) << ": pending from " << Fmt("%.1fs", w->pending_since_s())
       << ", bound at " << Fmt("%.1fs", w->bound_at_s()) << " to node " << w->node()
       << NodeWords(*w) << "\n";
  }
  if (pods.pending_at_end() == 0) return;
  os << pods.pending_at_end() << (pods.pending_at_end() == 1 ? " pod" : " pods")
     << " still pending at the end of the run, the oldest since "
     << Fmt("%.1fs", pods.oldest_pending_since_s()) << "\n";
}

}  // namespace mpsim
