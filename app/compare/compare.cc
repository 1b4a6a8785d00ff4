#include "app/compare/compare.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/commands.h"

namespace mpsim {
namespace {

using nlohmann::json;

// What a person compares first: convergence, matching latency, then cost.
constexpr const char* kRunMetrics[] = {"end_time_s", "events_processed", "reconciles",
                                       "api_writes"};
constexpr const char* kPoolMetrics[] = {
    "time_to_converge_s", "desired_replicas",   "ready_replicas", "available_replicas",
    "reconciles",         "provider_api_calls", "faults_injected"};
constexpr const char* kLatency[] = {"p50", "p90", "p99", "max", "count"};

std::optional<double> Number(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// name -> pool object; the run's own metrics under "".
std::map<std::string, const json*> Pools(const json& s) {
  std::map<std::string, const json*> out{{"", &s}};
  for (const json& p : s["pools"]) out[p.value("name", "")] = &p;
  return out;
}

void PoolRows(const std::string& pool, const json* a, const json* b, std::vector<CompareRow>* out) {
  auto get = [](const json* j, const char* key) {
    return j ? Number(*j, key) : std::optional<double>();
  };
  for (const char* m : kPoolMetrics) out->push_back({pool, m, get(a, m), get(b, m)});
  const json* la = a && a->contains("matching_latency_s") ? &(*a)["matching_latency_s"] : nullptr;
  const json* lb = b && b->contains("matching_latency_s") ? &(*b)["matching_latency_s"] : nullptr;
  for (const char* m : kLatency) {
    out->push_back({pool, std::string("matching_latency_s.") + m, get(la, m), get(lb, m)});
  }
}

bool Parse(const std::string& text, const char* side, json* out, std::string* error) {
  *out = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (out->is_object() && out->contains("pools") && (*out)["pools"].is_array()) return true;
  *error = std::string(side) + " is not a summary.json (no \"pools\" list)";
  return false;
}

bool ReadSummary(const std::string& path, std::string* text, std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".yaml" || ext == ".yml") {
    *error = path +
             " is a scenario; compare A B takes two result directories or summary.json "
             "files (give a scenario alone to run it on every cloud: compare SCENARIO)";
    return false;
  }
  const fs::path file =
      fs::is_directory(path, ec) ? fs::path(path) / "summary.json" : fs::path(path);
  std::ifstream in(file);
  if (!in) {
    *error = "cannot read " + file.string() + " (expected a result directory or a summary.json)";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

std::optional<double> Delta(const CompareRow& r) {
  if (!r.a || !r.b) return std::nullopt;
  return *r.b - *r.a;
}

std::optional<double> Ratio(const CompareRow& r) {
  if (!r.a || !r.b || *r.a == 0) return std::nullopt;
  return *r.b / *r.a;
}

json JsonValue(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

std::string FormatCell(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", *v);
  return buf;
}

bool CompareSummaries(const std::string& a_json, const std::string& b_json,
                      std::vector<CompareRow>* rows, std::string* error) {
  json a, b;
  if (!Parse(a_json, "A", &a, error) || !Parse(b_json, "B", &b, error)) return false;
  for (const char* m : kRunMetrics) rows->push_back({"", m, Number(a, m), Number(b, m)});
  const auto pa = Pools(a), pb = Pools(b);
  std::map<std::string, int> names;
  for (const auto& [n, p] : pa) names[n] = 0;
  for (const auto& [n, p] : pb) names[n] = 0;
  for (const auto& [name, unused] : names) {
    if (name.empty()) continue;
    auto ia = pa.find(name), ib = pb.find(name);
    PoolRows(name, ia == pa.end() ? nullptr : ia->second, ib == pb.end() ? nullptr : ib->second,
             rows);
  }
  return true;
}

void PrintCompareTable(std::ostream& os, const std::vector<CompareRow>& rows) {
  char line[200];
  std::snprintf(line, sizeof line, "%-12s %-28s %12s %12s %12s %8s\n", "pool", "metric", "A", "B",
                "delta", "ratio");
  os << line;
  for (const CompareRow& r : rows) {
    std::snprintf(line, sizeof line, "%-12s %-28s %12s %12s %12s %8s\n",
                  r.pool.empty() ? "(run)" : r.pool.c_str(), r.metric.c_str(),
                  FormatCell(r.a).c_str(), FormatCell(r.b).c_str(), FormatCell(Delta(r)).c_str(),
                  FormatCell(Ratio(r)).c_str());
    os << line;
  }
}

std::string CompareJson(const std::string& a, const std::string& b,
                        const std::vector<CompareRow>& rows) {
  json out = {{"a", a}, {"b", b}, {"rows", json::array()}};
  for (const CompareRow& r : rows) {
    out["rows"].push_back({{"pool", r.pool},
                           {"metric", r.metric},
                           {"a", JsonValue(r.a)},
                           {"b", JsonValue(r.b)},
                           {"delta", JsonValue(Delta(r))},
                           {"ratio", JsonValue(Ratio(r))}});
  }
  return out.dump(2) + "\n";
}

int CompareCommand(const CompareArgs& args) {
  std::string a, b, error;
  std::vector<CompareRow> rows;
  if (!ReadSummary(args.a, &a, &error) || !ReadSummary(args.b, &b, &error)) {
    std::cerr << "error: compare: " << error << "\n";
    return kExitBadInput;
  }
  if (!CompareSummaries(a, b, &rows, &error)) {
    std::cerr << "error: compare: " << error << " (A: " << args.a << ", B: " << args.b << ")\n";
    return kExitBadInput;
  }
  if (args.json) {
    std::cout << CompareJson(args.a, args.b, rows);
  } else {
    std::cout << "A: " << args.a << "\nB: " << args.b << "\n\n";
    PrintCompareTable(std::cout, rows);
  }
  return kExitOk;
}

}  // namespace mpsim
