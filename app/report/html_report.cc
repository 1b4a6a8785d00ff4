#include "app/report/html_report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "app/report/atomic_file.h"
#include "app/report/explain.h"
#include "app/report/html_escape.h"
#include "app/report/json_message.h"
#include "app/report/pod_wait_facts.h"
#include "app/report/svg_chart.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;

constexpr const char* kReportStyle =
    "body{font-family:sans-serif;margin:1.5em;max-width:60em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}"
    "pre{background:#f6f6f6;padding:.6em;overflow-x:auto}"
    "section{border-top:2px solid #888;margin-top:2em}";

std::string HtmlSecs(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", v);
  return buf;
}

std::string HtmlCell(const std::string& text) { return "<td>" + HtmlEscape(text) + "</td>"; }
std::string HtmlHead(const std::string& text) { return "<th>" + HtmlEscape(text) + "</th>"; }

// The end of the interesting part, as scripts/plot.py's x_end: the last state
// change plus a margin, not the quiet tail up to the horizon.
double ReportXEnd(const proto::RunSummary& s, const std::vector<CsvTimelineRow>& rows) {
  double last = 0;
  for (const CsvTimelineRow& r : rows) last = std::max(last, r.time_s);
  return std::min(s.end_time_s(), last * 1.1 + 1.0);
}

std::string ReportRunHeader(const proto::RunSummary& s, bool has_trace) {
  std::string h = "<h1>mpsim report: " + HtmlEscape(s.scenario()) + "</h1>\n<p>seed " +
                  std::to_string(s.seed()) + ", simulated " + HtmlSecs(s.end_time_s()) + " in " +
                  std::to_string(s.events_processed()) +
                  " events (stopped: " + HtmlEscape(s.stop_reason()) + "), mpsim " +
                  HtmlEscape(s.mpsim_version()) + "</p>\n";
  if (!has_trace) return h + "<p>no trace.json in this directory</p>\n";
  return h +
         "<p>trace: <a href=\"trace.json\">trace.json</a> (open it in "
         "https://ui.perfetto.dev with \"Open trace file\")</p>\n";
}

std::string ReportPhaseSection(const proto::PoolSummary& p, double end) {
  std::vector<Band> bands;
  std::string table =
      "<table><tr>" + HtmlHead("phase") + HtmlHead("from") + HtmlHead("to") + "</tr>";
  const auto& t = p.phase_transitions();
  for (int i = 0; i < t.size(); ++i) {
    const double to = i + 1 < t.size() ? t[i + 1].time_s() : end;
    bands.push_back({t[i].phase(), t[i].time_s(), std::max(to, t[i].time_s())});
    table += "<tr>" + HtmlCell(t[i].phase()) + HtmlCell(HtmlSecs(t[i].time_s())) +
             HtmlCell(i + 1 < t.size() ? HtmlSecs(to) : "end") + "</tr>";
  }
  return "<h3>phases</h3>\n" + BandBarSvg(bands, end) + "\n" + table + "</table>\n";
}

std::string ReportReplicaSection(const proto::PoolSummary& p,
                                 const std::vector<CsvTimelineRow>& rows, double end) {
  const std::vector<ChartSeries> series = {
      {"desired", "#1f77b4", false, PoolSeries(rows, p.name(), "spec.replicas")},
      {"ready", "#ff7f0e", true, PoolSeries(rows, p.name(), "readyReplicas")},
      {"available", "#2ca02c", true, PoolSeries(rows, p.name(), "availableReplicas")}};
  std::string conv = p.has_time_to_converge_s()
                         ? "converged in " + HtmlSecs(p.time_to_converge_s())
                         : "not converged: " + HtmlEscape(p.not_converged_reason());
  return "<h3>replicas</h3>\n<p>desired " + std::to_string(p.desired_replicas()) + ", ready " +
         std::to_string(p.ready_replicas()) + ", available " +
         std::to_string(p.available_replicas()) + "; " + conv + "</p>\n" +
         StepChartSvg(series, end) + "\n";
}

std::string ReportLatencySection(const proto::PoolSummary& p,
                                 const std::vector<CsvTimelineRow>& rows) {
  const proto::LatencyStats& l = p.matching_latency_s();
  std::string s = "<h3>matching latency</h3>\n<p>providerID listed to nodeRef, " +
                  std::to_string(l.count()) + " nodes: p50 " + HtmlSecs(l.p50()) + ", p90 " +
                  HtmlSecs(l.p90()) + ", p99 " + HtmlSecs(l.p99()) + ", max " + HtmlSecs(l.max()) +
                  "</p>\n";
  const std::vector<double> lat = MatchingLatencies(rows, p.name());
  if (lat.empty()) return s + "<p>no node was matched</p>\n";
  return s + HistogramSvg(lat, "providerID listed -> nodeRef (s)") + "\n";
}

std::string ReportExplainSection(const proto::PoolSummary& p, const proto::PodWaits* pods) {
  std::ostringstream os;
  PrintExplanation(os, p, /*color=*/false, pods);
  return "<h3>why it took this long</h3>\n<pre>" + HtmlEscape(os.str()) + "</pre>\n";
}

std::string ReportErrorSection(const proto::PoolSummary& p) {
  std::string s = "<h3>errors and faults</h3>\n";
  if (p.last_errors_size() == 0) {
    s += "<p>no failed reconcile</p>\n";
  } else {
    s += "<table><tr>" + HtmlHead("controller") + HtmlHead("failed reconciles") +
         HtmlHead("first") + HtmlHead("last") + HtmlHead("last error") + "</tr>";
    for (const proto::ControllerErrors& e : p.last_errors()) {
      s += "<tr>" + HtmlCell(e.controller()) + HtmlCell(std::to_string(e.count())) +
           HtmlCell(HtmlSecs(e.first_time_s())) + HtmlCell(HtmlSecs(e.last_time_s())) +
           HtmlCell(e.message()) + "</tr>";
    }
    s += "</table>\n";
  }
  s += "<p>faults injected: " + std::to_string(p.faults_injected()) + "</p>\n";
  if (p.faults_by_kind().empty()) return s;
  std::map<std::string, uint64_t> kinds(p.faults_by_kind().begin(), p.faults_by_kind().end());
  s += "<table><tr>" + HtmlHead("fault") + HtmlHead("count") + "</tr>";
  for (const auto& [kind, n] : kinds)
    s += "<tr>" + HtmlCell(kind) + HtmlCell(std::to_string(n)) + "</tr>";
  return s + "</table>\n";
}

std::string ReportPoolSection(const proto::PoolSummary& p, const std::vector<CsvTimelineRow>& rows,
                              double end, const proto::PodWaits* pods) {
  return "<section id=\"pool-" + HtmlEscape(p.name()) + "\">\n<h2>pool " + HtmlEscape(p.name()) +
         " (" + HtmlEscape(p.provider()) + "), final phase " + HtmlEscape(p.final_phase()) +
         "</h2>\n" + ReportPhaseSection(p, end) + ReportReplicaSection(p, rows, end) +
         ReportLatencySection(p, rows) + ReportExplainSection(p, pods) + ReportErrorSection(p) +
         "</section>\n";
}

bool ReadReportSummary(const fs::path& file, proto::RunSummary* s, std::string* error) {
  if (ReadJsonMessage(file.string(), "summary.json", s, error)) return true;
  if (!fs::exists(file)) *error += " (expected the output directory of mpsim run)";
  return false;
}

bool ReadReportTimeline(const fs::path& file, std::vector<CsvTimelineRow>* rows,
                        std::string* error) {
  std::ifstream in(file);
  if (!in) {
    *error = "cannot read " + file.string();
    return false;
  }
  if (ReadTimelineCsv(in, rows, error)) return true;
  *error = file.string() + ": " + *error;
  return false;
}

}  // namespace

std::string HtmlReport(const proto::RunSummary& s, const std::vector<CsvTimelineRow>& rows,
                       bool has_trace, const proto::PodWaits* pods) {
  const double end = ReportXEnd(s, rows);
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>mpsim "
      "report: " +
      HtmlEscape(s.scenario()) + "</title>\n<style>" + kReportStyle +
      "</style>\n</head>\n<body>\n" + ReportRunHeader(s, has_trace);
  for (const proto::PoolSummary& p : s.pools()) page += ReportPoolSection(p, rows, end, pods);
  return page + "</body>\n</html>\n";
}

bool WriteHtmlReport(const std::string& dir, std::string* error) {
  proto::RunSummary s;
  std::vector<CsvTimelineRow> rows;
  const fs::path d(dir);
  if (!ReadReportSummary(d / "summary.json", &s, error)) return false;
  if (!ReadReportTimeline(d / "timeline.csv", &rows, error)) return false;
  std::error_code ec;
  const bool has_trace = fs::exists(d / "trace.json", ec);
  // Only a run with pods writes the file.
  std::optional<proto::PodWaits> pods;
  if (fs::exists(d / kPodWaitsFile, ec) &&
      !ReadPodWaits((d / kPodWaitsFile).string(), &pods.emplace(), error)) {
    return false;
  }
  return WriteFileAtomic((d / "report.html").string(),
                         HtmlReport(s, rows, has_trace, pods ? &*pods : nullptr), error);
}

}  // namespace mpsim
