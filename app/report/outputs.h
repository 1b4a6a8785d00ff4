// The files `mpsim run` writes: summary.json (RunSummary as JSON),
// timeline.csv (one row per state change) and trace.json (Chrome trace events).
#pragma once

#include <string>

#include "app/report/text_sink.h"
#include "app/report/trace_json.h"
#include "app/world.h"

namespace mpsim {

std::string SummaryJson(const proto::RunSummary& s);
std::string TimelineCsv(const Recorder& rec);
// The same text, handed to `sink` a megabyte or so at a time.
void WriteTimelineCsv(const Recorder& rec, TextSink sink);

// Writes the three files into dir, each atomically, summary.json last (and
// removed first): when it exists the set is whole. A run with pods also
// writes pod_waits.json (PodWaitsJson); one without removes a stale one.
// False with *error set on failure.
bool WriteRunOutputs(const std::string& dir, const RunOutput& out, std::string* error);

}  // namespace mpsim
