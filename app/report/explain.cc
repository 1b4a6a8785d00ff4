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

void PrintExplanation(std::ostream& os, const proto::PoolSummary& p, bool color) {
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
  if (p.last_errors_size() == 0) return;
  os << "failed reconciles of pool " << p.name() << "'s objects, by controller:\n";
  PrintLastErrors(os, p);
}

}  // namespace mpsim
