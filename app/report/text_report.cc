#include "app/report/text_report.h"

#include <cstdio>
#include <string>

namespace mpsim {
namespace {

std::string Fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string Secs(double s) { return Fmt("%.1fs", s); }

std::string Paint(const std::string& text, const char* code, bool color) {
  return color ? std::string("\033[") + code + "m" + text + "\033[0m" : text;
}

void PrintPhases(std::ostream& os, const proto::PoolSummary& p, double end) {
  char line[160];
  std::snprintf(line, sizeof line, "  %-14s %10s %10s %10s\n", "phase", "from", "to", "duration");
  os << line;
  for (int i = 0; i < p.phase_transitions_size(); ++i) {
    const auto& t = p.phase_transitions(i);
    double to = i + 1 < p.phase_transitions_size() ? p.phase_transitions(i + 1).time_s() : end;
    std::snprintf(line, sizeof line, "  %-14s %10s %10s %10s\n", t.phase().c_str(),
                  Secs(t.time_s()).c_str(), Secs(to).c_str(), Secs(to - t.time_s()).c_str());
    os << line;
  }
}

// The one wait a reader should look at first; --explain prints the chain.
void PrintLongestWait(std::ostream& os, const proto::PoolSummary& p) {
  const proto::PathSegment* longest = nullptr;
  for (const proto::PathSegment& s : p.critical_path().segments()) {
    if (!longest || s.duration_s() > longest->duration_s()) longest = &s;
  }
  if (!longest) return;
  os << "  longest wait: " << Fmt("%.0f%%", 100 * longest->share()) << " " << longest->what()
     << " (--explain " << p.name() << " for the whole chain)\n";
}

void PrintPool(std::ostream& os, const proto::PoolSummary& p, double end, bool color) {
  os << "pool " << p.name() << " (" << p.provider() << "): " << p.final_phase() << ", ";
  if (p.converged()) {
    os << Paint("converged", "32", color) << " in " << Secs(p.time_to_converge_s()) << "\n";
  } else {
    os << Paint("not converged", "31", color) << " - " << p.not_converged_reason() << "\n";
  }
  PrintPhases(os, p, end);
  os << "  replicas: desired " << p.desired_replicas() << ", ready " << p.ready_replicas()
     << ", available " << p.available_replicas() << "\n";
  const auto& m = p.matching_latency_s();
  os << "  matching latency: ";
  if (m.count() == 0) {
    os << "no matches\n";
  } else {
    os << "p50 " << Secs(m.p50()) << ", p90 " << Secs(m.p90()) << ", p99 " << Secs(m.p99())
       << ", max " << Secs(m.max()) << " (" << m.count() << " nodes)\n";
  }
  os << "  reconciles " << p.reconciles() << ", provider API calls " << p.provider_api_calls()
     << ", faults injected " << p.faults_injected() << "\n";
  PrintLastErrors(os, p);
  PrintLongestWait(os, p);
}

}  // namespace

std::string ShortMessage(const std::string& message, size_t max) {
  std::string one_line = message;
  for (char& c : one_line) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (one_line.size() <= max) return one_line;
  const std::string dots = "...";
  size_t cut = max > dots.size() ? max - dots.size() : 0;
  // Back off to the start of a UTF-8 character.
  while (cut > 0 && (static_cast<unsigned char>(one_line[cut]) & 0xC0) == 0x80) --cut;
  return one_line.substr(0, cut) + dots;
}

void PrintLastErrors(std::ostream& os, const proto::PoolSummary& p) {
  for (const proto::ControllerErrors& e : p.last_errors()) {
    os << "  " << e.controller() << ": " << e.count() << " failed reconcile"
       << (e.count() == 1 ? "" : "s") << ", " << Secs(e.first_time_s()) << " to "
       << Secs(e.last_time_s()) << "; last error: " << ShortMessage(e.message()) << "\n";
  }
}

void PrintHumanSummary(std::ostream& os, const proto::RunSummary& s, bool color) {
  os << "scenario " << s.scenario() << ", seed " << s.seed() << ": simulated "
     << Secs(s.end_time_s()) << " in " << s.events_processed()
     << " events (stopped: " << s.stop_reason() << ")\n";
  for (const auto& p : s.pools()) {
    os << "\n";
    PrintPool(os, p, s.end_time_s(), color);
  }
}

}  // namespace mpsim
