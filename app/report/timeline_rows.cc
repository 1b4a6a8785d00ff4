#include "app/report/timeline_rows.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace mpsim {
namespace {

// Splits one CSV record that may continue over several lines (a quoted field
// holding a newline). False at the end of input or on an unclosed quote.
bool ReadCsvRecord(std::istream& in, std::vector<std::string>* fields, size_t* line_no) {
  fields->assign(1, "");
  std::string line;
  if (!std::getline(in, line)) return false;
  ++*line_no;
  bool quoted = false;
  for (size_t i = 0;; ++i) {
    if (i == line.size()) {
      if (!quoted) return true;
      if (!std::getline(in, line)) return false;
      ++*line_no;
      fields->back() += '\n';
      i = static_cast<size_t>(-1);
      continue;
    }
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields->back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields->emplace_back();
    } else {
      fields->back() += c;
    }
  }
}

bool ParseCsvNumber(const std::string& text, double* out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  return !text.empty() && ec == std::errc() && ptr == end;
}

}  // namespace

bool ReadTimelineCsv(std::istream& in, std::vector<CsvTimelineRow>* rows, std::string* error) {
  std::vector<std::string> f;
  size_t line_no = 0;
  if (!ReadCsvRecord(in, &f, &line_no) || f.size() != 6 || f[0] != "time_s") {
    *error = "line 1: expected the header time_s,object_kind,object,field,from,to";
    return false;
  }
  while (ReadCsvRecord(in, &f, &line_no)) {
    if (f.size() == 1 && f[0].empty()) continue;
    CsvTimelineRow r;
    if (f.size() != 6 || !ParseCsvNumber(f[0], &r.time_s)) {
      *error = "line " + std::to_string(line_no) + ": expected time_s and five more fields";
      return false;
    }
    if (f[1] == "Controller") continue;
    r.kind = std::move(f[1]);
    r.object = std::move(f[2]);
    r.field = std::move(f[3]);
    r.from = std::move(f[4]);
    r.to = std::move(f[5]);
    rows->push_back(std::move(r));
  }
  return true;
}

std::vector<StepPoint> PoolSeries(const std::vector<CsvTimelineRow>& rows, const std::string& pool,
                                  const std::string& field) {
  std::vector<StepPoint> out{{0, 0}};
  for (const CsvTimelineRow& r : rows) {
    if (r.kind != "MachinePool" || r.object != pool || r.field != field) continue;
    double v = 0;
    if (!ParseCsvNumber(r.to, &v)) v = 0;
    out.push_back({r.time_s, v});
  }
  return out;
}

std::vector<double> MatchingLatencies(const std::vector<CsvTimelineRow>& rows,
                                      const std::string& pool) {
  std::map<std::string, double> listed;        // providerID -> first time in the list
  std::map<std::string, std::string> node_id;  // Node -> providerID
  std::set<std::string> seen;
  std::vector<double> out;
  for (const CsvTimelineRow& r : rows) {
    if (r.to.empty()) continue;
    if (r.kind == "InfraMachinePool" && r.object == pool) {
      listed.emplace(r.to, r.time_s);
    } else if (r.kind == "Node" && r.field == "providerID") {
      node_id[r.object] = r.to;
    } else if (r.kind == "MachinePool" && r.object == pool && r.field == "nodeRef") {
      auto id = node_id.find(r.to);
      if (id == node_id.end()) continue;
      auto at = listed.find(id->second);
      if (at != listed.end() && seen.insert(id->second).second)
        out.push_back(r.time_s - at->second);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace mpsim
