// The files `mpsim run` writes: summary.json (RunSummary as JSON),
// timeline.csv (one row per state change) and trace.json (Chrome trace events).
#pragma once

#include <string>

#include "app/trace_json.h"
#include "app/world.h"

namespace mpsim {

std::string SummaryJson(const proto::RunSummary& s);
std::string TimelineCsv(const Recorder& rec);

// The two long files' texts, which need the summary's pools but not their
// critical paths: a run command renders them while those are worked out.
struct RunTexts {
  std::string timeline_csv;
  std::string trace_json;
};
// The trace is made on a second core unless `one_core` (the caller already
// keeps the other busy).
RunTexts RenderRunTexts(const RunOutput& out, bool one_core = false);

// Writes the three files into dir, each atomically, summary.json last (and
// removed first): when it exists the set is whole. False with *error set on failure.
bool WriteRunOutputs(const std::string& dir, const RunOutput& out, std::string* error);
// The same in two steps, for a caller that writes the long files while the
// critical paths are worked out: first summary.json goes and the long texts
// are written, then summary.json comes back.
bool WriteRunTexts(const std::string& dir, const RunTexts& texts, std::string* error);
bool WriteRunSummary(const std::string& dir, const RunOutput& out, std::string* error);

}  // namespace mpsim
