#include "app/compare/compare_providers.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/commands.h"
#include "app/compare/compare.h"
#include "app/report/atomic_file.h"
#include "app/report/outputs.h"
#include "app/world.h"
#include "models/registry.h"
#include "scenario/loader.h"

namespace mpsim {
namespace {

using nlohmann::json;

// DESIGN.md: these keys mean the same on every cloud.
constexpr const char* kSharedKeys[] = {"zones", "capacity", "launchDelay", "deleteDelay"};

// The blocks of the registration list (models/registry.cc), so that a new
// provider compares without a change here.
bool KnownProvider(const std::string& p) {
  for (const ProviderRegistration& r : Providers()) {
    if (p == r.block) return true;
  }
  return false;
}

YAML::Node SharedKeys(const YAML::Node& provider) {
  YAML::Node out(YAML::NodeType::Map);
  if (!provider.IsMap() || provider.size() != 1) return out;
  const YAML::Node block = provider.begin()->second;
  if (!block.IsMap()) return out;
  for (const char* k : kSharedKeys) {
    if (block[k]) out[k] = block[k];
  }
  return out;
}

bool ReadText(const std::string& path, std::string* text) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

// One run per provider; the summaries as JSON text, in provider order.
bool RunEach(const CompareProvidersArgs& args, const std::string& text, const std::string& dir,
             std::vector<std::string>* summaries) {
  for (const std::string& p : args.providers) {
    std::string retargeted, error;
    proto::Scenario sc;
    std::vector<ScenarioError> errors;
    if (!RetargetScenario(text, p, &retargeted, &error) ||
        !LoadScenarioFromString(retargeted, args.scenario + " (as " + p + ")", {}, &sc, &errors)) {
      for (const ScenarioError& e : errors) error += (error.empty() ? "" : "\n") + e.String();
      std::cerr << "error: compare: " << error << "\n";
      return false;
    }
    RunOutput out;
    if (!RunScenario(sc, args.seed.value_or(sc.spec().seed()), &out, &error) ||
        !WriteRunOutputs(dir + "/" + p, out, &error)) {
      std::cerr << "error: compare: " << args.scenario << " as " << p << ": " << error << "\n";
      return false;
    }
    summaries->push_back(SummaryJson(out.summary));
  }
  return true;
}

// Rows of (pool, metric) with one value per provider: each provider's rows
// against the first one's come in the same order (CompareSummaries).
using Table = std::vector<std::pair<CompareRow, std::vector<std::optional<double>>>>;

Table BuildTable(const std::vector<std::string>& summaries) {
  Table table;
  for (size_t i = 0; i < summaries.size(); ++i) {
    std::vector<CompareRow> rows;
    std::string error;
    CompareSummaries(summaries[0], summaries[i], &rows, &error);
    if (table.empty()) {
      for (const CompareRow& r : rows) table.push_back({r, {}});
    }
    for (size_t j = 0; j < rows.size() && j < table.size(); ++j) {
      table[j].second.push_back(rows[j].b);
    }
  }
  return table;
}

void PrintTable(const std::vector<std::string>& providers, const Table& table) {
  std::printf("%-12s %-28s", "pool", "metric");
  for (const std::string& p : providers) std::printf(" %12s", p.c_str());
  std::printf("\n");
  for (const auto& [row, values] : table) {
    std::printf("%-12s %-28s", row.pool.empty() ? "(run)" : row.pool.c_str(), row.metric.c_str());
    for (const auto& v : values) std::printf(" %12s", FormatCell(v).c_str());
    std::printf("\n");
  }
}

std::string TableJson(const CompareProvidersArgs& args, const Table& table) {
  json out = {{"scenario", args.scenario}, {"providers", args.providers}, {"rows", json::array()}};
  for (const auto& [row, values] : table) {
    json by_provider = json::object();
    for (size_t i = 0; i < values.size(); ++i) {
      by_provider[args.providers[i]] = values[i] ? json(*values[i]) : json(nullptr);
    }
    out["rows"].push_back({{"pool", row.pool}, {"metric", row.metric}, {"values", by_provider}});
  }
  return out.dump(2) + "\n";
}

}  // namespace

bool RetargetScenario(const std::string& yaml_text, const std::string& provider, std::string* out,
                      std::string* error) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    *error = e.what();
    return false;
  }
  YAML::Node pools = root["spec"] ? root["spec"]["machinePools"] : YAML::Node();
  if (!pools.IsSequence()) {
    *error = "spec.machinePools: expected a list of pools";
    return false;
  }
  for (YAML::Node pool : pools) {
    YAML::Node block(YAML::NodeType::Map);
    block[provider] = SharedKeys(pool["provider"]);
    pool["provider"] = block;
  }
  YAML::Emitter emit;
  emit << root;
  *out = emit.c_str();
  return true;
}

int CompareProvidersCommand(const CompareProvidersArgs& args) {
  for (const std::string& p : args.providers) {
    if (!KnownProvider(p)) {
      std::cerr << "error: compare: unknown provider \"" << p << "\" in --providers; expected "
                << AvailableProviders() << "\n";
      return kExitBadInput;
    }
  }
  proto::Scenario original;
  if (!LoadOrReport(args.scenario, {{}, args.overlay}, &original)) return kExitBadInput;
  std::string text;
  if (!ReadText(args.scenario, &text)) {
    std::cerr << "error: compare: cannot read " << args.scenario << "\n";
    return kExitBadInput;
  }
  std::vector<ScenarioError> errors;
  if (!args.overlay.empty() &&
      !OverlaidScenarioText(text, args.scenario, args.overlay, &text, &errors)) {
    for (const ScenarioError& e : errors) std::cerr << "error: " << e.String() << "\n";
    return kExitBadInput;
  }
  const std::string dir =
      args.out_dir.empty() ? "results/" + original.metadata().name() + "-compare" : args.out_dir;
  std::vector<std::string> summaries;
  if (!RunEach(args, text, dir, &summaries)) return kExitBadInput;
  const Table table = BuildTable(summaries);
  const std::string as_json = TableJson(args, table);
  std::string error;
  if (!WriteFileAtomic(dir + "/compare.json", as_json, &error)) {
    std::cerr << "error: compare: " << error << "\n";
    return kExitBadInput;
  }
  if (args.json) {
    std::cout << as_json;
  } else {
    std::cout << "scenario " << args.scenario << " on each provider (results in " << dir
              << "/<provider>/)\n\n";
    PrintTable(args.providers, table);
  }
  return kExitOk;
}

}  // namespace mpsim
