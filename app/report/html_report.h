// report.html: one self-contained page per run (`mpsim report DIR`,
// `mpsim run --report`). Per pool the phase timeline, replicas over time,
// matching latencies, the explanation --explain prints, errors and faults;
// inline SVG and CSS only, nothing fetched.
#pragma once

#include <string>
#include <vector>

#include "app/report/timeline_rows.h"
#include "sim/proto/pod_waits.pb.h"
#include "sim/proto/summary.pb.h"

namespace mpsim {

// The page for summary `s` and its timeline rows; `has_trace` links trace.json.
// With `pods` each pool's explanation ends with its pod waits (PrintPodWaits).
std::string HtmlReport(const proto::RunSummary& s, const std::vector<CsvTimelineRow>& rows,
                       bool has_trace, const proto::PodWaits* pods = nullptr);

// Reads DIR/summary.json, DIR/timeline.csv and, when there, DIR/pod_waits.json
// and writes DIR/report.html atomically. False with *error set (naming the
// file) when one cannot be read or parsed, or the page cannot be written.
bool WriteHtmlReport(const std::string& dir, std::string* error);

}  // namespace mpsim
