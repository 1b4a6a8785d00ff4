// The reports `mpsim run` adds on request: --explain POOL (the critical path),
// --report (report.html) and --plot (PNGs beside the results), after the
// run's files are written.
#pragma once

#include <string>

#include "app/commands.h"
#include "app/world.h"

namespace mpsim {

// Exit status when the run's outputs were written but --plot could not make
// its PNGs (no matplotlib, script failed) or --report its page.
inline constexpr int kExitPlotFailed = 3;

// Before the run: --explain names a pool of the scenario. False after one
// message on stderr naming the pools there are.
bool CheckExplainPool(const RunArgs& args, const proto::Scenario& sc);

// Prints the explanation (to stdout; to stderr under --json, which owns
// stdout), writes report.html and the plots. False when either could not be made.
bool WriteRequestedReports(const RunArgs& args, const RunOutput& out, const std::string& dir);

}  // namespace mpsim
