#include "app/report/run_reports.h"

#include <unistd.h>

#include <iostream>

#include "app/report/explain.h"
#include "app/report/html_report.h"
#include "app/report/plot.h"
#include "scenario/validate.h"
#include "sim/scenario_schema.h"

namespace mpsim {

bool CheckExplainPool(const RunArgs& args, const proto::Scenario& sc) {
  if (args.explain_pool.empty()) return true;
  std::vector<std::string> names;
  for (const auto& p : sc.spec().machine_pools()) {
    if (p.name() == args.explain_pool) return true;
    names.push_back(p.name());
  }
  std::cerr << "error: --explain: no pool \"" << args.explain_pool << "\" in " << args.scenario
            << "; expected " << scenario::OrList(names)
            << scenario::DidYouMean(args.explain_pool, names) << "\n";
  return false;
}

namespace {

// report.html is read back from the files just written, so it is the same
// page `mpsim report DIR` makes.
bool WriteReport(const RunArgs& args, const std::string& dir) {
  std::string error;
  if (!WriteHtmlReport(dir, &error)) {
    std::cerr << "error: --report: " << error << "\n";
    return false;
  }
  if (!args.quiet && !args.json) std::cout << "wrote " << dir << "/report.html\n";
  return true;
}

}  // namespace

bool WriteRequestedReports(const RunArgs& args, const RunOutput& out, const std::string& dir) {
  if (!args.explain_pool.empty()) {
    if (const proto::PoolSummary* p = FindPool(out.summary, args.explain_pool)) {
      std::ostream& os = args.json ? std::cerr : std::cout;
      const int fd = args.json ? STDERR_FILENO : STDOUT_FILENO;
      os << "\n";
      PrintExplanation(os, *p, ::isatty(fd) != 0, out.pod_waits ? &*out.pod_waits : nullptr);
    }
  }
  const bool report_ok = !args.report || WriteReport(args, dir);
  if (!args.plot) return report_ok;
  if (!WritePlots(dir, std::cerr)) return false;
  if (!args.quiet && !args.json) {
    std::cout << "wrote " << dir << "/{replicas,matching-latency,instances}.png\n";
  }
  return report_ok;
}

}  // namespace mpsim
