// The files `mpsim run` writes: summary.json (RunSummary as JSON),
// timeline.csv (one row per state change) and trace.json (Chrome trace events).
#pragma once

#include <string>

#include "app/trace_json.h"
#include "app/world.h"

namespace mpsim {

std::string SummaryJson(const proto::RunSummary& s);
std::string TimelineCsv(const Recorder& rec);

// Writes the three files into dir, each atomically, summary.json last (and
// removed first): when it exists the set is whole. False with *error set on failure.
bool WriteRunOutputs(const std::string& dir, const RunOutput& out, std::string* error);

}  // namespace mpsim
