// sweep.json: the plan, then per point each metric's distribution over seeds,
// then the scaling laws of each metric against each numeric parameter.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/sweep/sweep_plan.h"
#include "app/sweep/sweep_store.h"

namespace mpsim {

// What identifies a sweep: the scenario (name and a hash of its text), the
// binary, the root seed, the seeds, the params and the metric names. Shards
// and resumed runs must agree on all of it.
nlohmann::ordered_json PlanJson(const SweepPlan& plan, const std::string& scenario_name,
                                const std::string& scenario_text,
                                const std::vector<std::string>& metrics);
// Adds the --overlay file a sweep runs with to its plan: `overlay` {path,
// fnv1a (of its text)}, so that shards and resumed runs must agree on it too.
void AddOverlayToPlan(const std::string& path, const std::string& text,
                      nlohmann::ordered_json* plan_json);
// The plan read back from PlanJson (for merge). False with *error set.
bool PlanFromJson(const nlohmann::ordered_json& j, SweepPlan* plan,
                  std::vector<std::string>* metrics, std::string* error);

// The journal's identity line: {"plan": ..., "shard": "I/N" or ""}.
std::string IdentityLine(const nlohmann::ordered_json& plan_json, const std::string& shard);

// The text of sweep.json for the runs in `rows`. Fits use every run as one
// observation; a fit needs a numeric param with two distinct values or more.
std::string SweepJson(const SweepPlan& plan, const nlohmann::ordered_json& plan_json,
                      const std::vector<std::string>& metrics, const std::string& shard,
                      const SweepRows& rows);

}  // namespace mpsim
