#include "app/commands.h"

#include <unistd.h>

#include <iostream>

#include "app/check/expectations.h"
#include "app/report/html_report.h"
#include "app/report/outputs.h"
#include "app/report/run_reports.h"
#include "app/report/text_report.h"
#include "app/world.h"
#include "scenario/json_schema.h"
#include "scenario/loader.h"

namespace mpsim {

// Prints every load error, one per line, and returns false if there was any.
bool LoadOrReport(const std::string& path, const ScenarioEdits& edits, proto::Scenario* sc,
                  std::ostream* err) {
  std::vector<ScenarioError> errors;
  if (LoadScenario(path, edits, sc, &errors)) return true;
  std::ostream& out = err ? *err : std::cerr;
  for (const ScenarioError& e : errors) out << "error: " << e.String() << "\n";
  return false;
}

int RunCommand(const RunArgs& args) {
  proto::Scenario sc;
  if (!LoadOrReport(args.scenario, {args.overrides, args.overlay}, &sc)) return kExitBadInput;
  if (!CheckExplainPool(args, sc)) return kExitBadInput;
  const uint64_t seed = args.seed.value_or(sc.spec().seed());
  RunOutput out;
  std::string error;
  if (!RunScenario(sc, seed, &out, &error)) {
    std::cerr << "error: " << args.scenario << ": " << error << "\n";
    return kExitBadInput;
  }
  const std::string dir = args.out_dir.empty() ? "results/" + sc.metadata().name() : args.out_dir;
  if (!WriteRunOutputs(dir, out, &error)) {
    std::cerr << "error: " << error << "\n";
    return kExitBadInput;
  }
  if (args.json) {
    std::cout << SummaryJson(out.summary);
  } else if (!args.quiet) {
    PrintHumanSummary(std::cout, out.summary, ::isatty(STDOUT_FILENO) != 0);
    std::cout << "\nwrote " << dir << "/{summary.json,timeline.csv,trace.json}\n";
  }
  const bool reports_ok = WriteRequestedReports(args, out, dir);
  bool all_passed = true;
  for (const ExpectationResult& r : CheckExpectations(sc, out)) {
    all_passed &= r.passed;
    if (!r.passed && !args.quiet) {
      std::cerr << "expectation failed: " << r.name << ": " << r.message << "\n";
    }
  }
  if (!all_passed) return kExitExpectationFailed;
  return reports_ok ? kExitOk : kExitPlotFailed;
}

int ReportCommand(const std::string& dir) {
  std::string error;
  if (!WriteHtmlReport(dir, &error)) {
    std::cerr << "error: " << error << "\n";
    return kExitBadInput;
  }
  std::cout << "wrote " << dir << "/report.html\n";
  return kExitOk;
}

int SchemaCommand() {
  std::cout << scenario::ScenarioJsonSchema().dump(2) << "\n";
  return kExitOk;
}

int ValidateCommand(const std::vector<std::string>& scenarios) {
  int status = kExitOk;
  for (const std::string& path : scenarios) {
    proto::Scenario sc;
    std::vector<ScenarioError> errors;
    std::vector<ScenarioError> warnings;
    const bool ok = LoadScenario(path, {}, &sc, &errors, &warnings);
    for (const ScenarioError& e : errors) std::cerr << "error: " << e.String() << "\n";
    // Settings that can never converge are still a valid scenario (exit 0):
    // a study of that failure is a fair use.
    for (const ScenarioError& w : warnings) std::cerr << "warning: " << w.String() << "\n";
    if (ok) {
      std::cout << path << ": ok (" << sc.metadata().name() << ", "
                << sc.spec().machine_pools_size() << " pool(s), " << sc.spec().events_size()
                << " event(s))\n";
    } else {
      status = kExitBadInput;
    }
  }
  return status;
}

}  // namespace mpsim
