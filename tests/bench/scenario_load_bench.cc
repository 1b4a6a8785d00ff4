// Loading a scenario of many pools (issue 54). The defaults table is filled
// into every pool's and every event's block: BM_ApplyDefaultsAlongTree
// (scenario/defaults.cc, each mapping of the document visited once for all
// the rows below it) against BM_ApplyDefaultsRowByRow, the walk it replaced
// (one walk of the document per row, looking keys up with yaml-cpp's
// operator[]), on the same document in one run.
#include <benchmark/benchmark.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "scenario/defaults.h"
#include "scenario/loader.h"
#include "scenario/scenario.pb.h"

namespace mpsim {
namespace {

std::string ManyPoolsText(int pools) {
  std::string s = "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: load}\nspec:\n";
  s += "  horizon: 2h\n  machinePools:\n";
  for (int i = 0; i < pools; ++i) {
    s += "    - {name: mp-" + std::to_string(i) + ", replicas: 0, provider: {test: {}}}\n";
  }
  s += "  events:\n";
  for (int i = 0; i < pools; ++i) {
    s += "    - {at: 0s, scale: {pool: mp-" + std::to_string(i) + ", replicas: 10}}\n";
  }
  return s;
}

// The replaced walk, kept here only to be measured against.
void RowFillKey(YAML::Node parent, const std::string& key, const YAML::Node& value) {
  const YAML::Node& view = parent;
  const YAML::Node existing = view[key];
  if (!existing.IsDefined() || (existing.IsNull() && value.IsMap())) {
    parent[key] = YAML::Clone(value);
  } else if (existing.IsMap() && value.IsMap()) {
    if (value["dist"].IsDefined() && existing["dist"].IsDefined()) return;
    for (auto it = value.begin(); it != value.end(); ++it) {
      RowFillKey(parent[key], it->first.Scalar(), it->second);
    }
  }
}

void RowFillAt(YAML::Node node, const std::vector<scenario::PathStep>& steps, size_t i,
               const YAML::Node& value) {
  const scenario::PathStep& step = steps[i];
  if (step.kind != scenario::PathStep::Kind::kKey) {
    if (!node.IsSequence()) return;
    for (size_t j = 0; j < node.size(); ++j) RowFillAt(node[j], steps, i + 1, value);
    return;
  }
  if (!node.IsMap()) return;
  if (i + 1 == steps.size()) return RowFillKey(node, step.key, value);
  const YAML::Node& view = node;
  const YAML::Node child = view[step.key];
  if (child.IsDefined() && !child.IsNull()) return RowFillAt(node[step.key], steps, i + 1, value);
  if (steps[i + 1].kind != scenario::PathStep::Kind::kKey ||
      (!child.IsDefined() && step.in_oneof)) {
    return;
  }
  node[step.key] = YAML::Node(YAML::NodeType::Map);
  RowFillAt(node[step.key], steps, i + 1, value);
}

void ApplyDefaultsRowByRow(YAML::Node root) {
  for (const scenario::DefaultEntry& d : scenario::DefaultTable()) {
    std::vector<scenario::PathStep> steps;
    std::string error;
    if (!scenario::ResolvePath(proto::Scenario::descriptor(), d.key, &steps, &error)) continue;
    RowFillAt(root, steps, 0, YAML::Load(d.value));
  }
}

void FillDefaults(benchmark::State& state, void (*fill)(YAML::Node)) {
  const std::string text = ManyPoolsText(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    YAML::Node root = YAML::Load(text);
    state.ResumeTiming();
    fill(root);
    benchmark::DoNotOptimize(root);
  }
}

void BM_ApplyDefaultsAlongTree(benchmark::State& state) {
  FillDefaults(state, scenario::ApplyDefaults);
}
BENCHMARK(BM_ApplyDefaultsAlongTree)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_ApplyDefaultsRowByRow(benchmark::State& state) {
  FillDefaults(state, ApplyDefaultsRowByRow);
}
BENCHMARK(BM_ApplyDefaultsRowByRow)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

// The whole load (parse, defaults, conversion, validation) grows linearly in
// the pools.
void BM_LoadManyPools(benchmark::State& state) {
  const std::string text = ManyPoolsText(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    proto::Scenario sc;
    std::vector<ScenarioError> errors;
    if (!LoadScenarioFromString(text, "bench.yaml", {}, &sc, &errors)) state.SkipWithError("load");
    benchmark::DoNotOptimize(sc);
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_LoadManyPools)
    ->Arg(10)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

}  // namespace
}  // namespace mpsim
