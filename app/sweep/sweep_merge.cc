// `mpsim merge`: the shards of one sweep into the files one machine would
// have written; shards of different sweeps, missing or repeated ones refused.
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "app/commands.h"
#include "app/sweep/sweep_command.h"
#include "app/sweep/sweep_plan.h"
#include "app/sweep/sweep_report.h"
#include "app/sweep/sweep_store.h"

namespace mpsim {
namespace {

using Json = nlohmann::ordered_json;

struct Shard {
  std::string dir;
  Json plan;
  size_t index = 0, count = 1;
};

bool ReadShard(const std::string& dir, Shard* out, std::string* error) {
  std::ifstream f(dir + "/sweep.json", std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const Json j = Json::parse(ss.str(), nullptr, false);
  if (!f || j.is_discarded() || !j.contains("plan")) {
    *error = dir +
             ": no finished sweep (sweep.json) here; an unfinished shard resumes with its "
             "own command";
    return false;
  }
  out->dir = dir;
  out->plan = j["plan"];
  const std::string shard = j.value("shard", "");
  return shard.empty() || ParseShard(shard, &out->index, &out->count, error);
}

// The first key of the plans that differs, to name in the error.
std::string Difference(const Json& a, const Json& b) {
  for (const auto& [key, value] : a.items()) {
    if (!b.contains(key) || b[key] != value) return key;
  }
  return "plan";
}

// Every shard is of the same sweep, and each of the N shards is there once.
bool CheckShards(const std::vector<Shard>& shards, std::string* error) {
  std::map<size_t, std::string> seen;
  for (const Shard& s : shards) {
    const Shard& first = shards.front();
    if (s.plan != first.plan) {
      const std::string key = Difference(first.plan, s.plan);
      *error = s.dir + " is a shard of another sweep than " + first.dir + ": their " + key +
               " differs (" + first.plan.value(key, Json()).dump() + " vs " +
               s.plan.value(key, Json()).dump() + ")";
      return false;
    }
    if (s.count != first.count) {
      *error = s.dir + " is shard " + std::to_string(s.index) + "/" + std::to_string(s.count) +
               " but " + first.dir + " is one of " + std::to_string(first.count);
      return false;
    }
    if (!seen.emplace(s.index, s.dir).second) {
      *error = s.dir + " and " + seen[s.index] + " are both shard " + std::to_string(s.index) +
               "/" + std::to_string(s.count);
      return false;
    }
  }
  for (size_t i = 0; i < shards.front().count; ++i) {
    if (!seen.count(i)) {
      *error =
          "shard " + std::to_string(i) + "/" + std::to_string(shards.front().count) + " is missing";
      return false;
    }
  }
  return true;
}

}  // namespace

int MergeCommand(const MergeArgs& args) {
  std::vector<Shard> shards(args.dirs.size());
  std::string error;
  for (size_t i = 0; i < args.dirs.size() && error.empty(); ++i) {
    ReadShard(args.dirs[i], &shards[i], &error);
  }
  SweepPlan plan;
  std::vector<std::string> metrics;
  if (error.empty()) CheckShards(shards, &error);
  if (error.empty()) PlanFromJson(shards.front().plan, &plan, &metrics, &error);
  SweepRows rows;
  const std::string header = SweepCsvHeader(plan, metrics);
  for (size_t i = 0; i < shards.size() && error.empty(); ++i) {
    ReadSweepCsv(shards[i].dir, plan, metrics.size(), header, &rows, &error);
  }
  if (error.empty() && rows.size() != plan.runs()) {
    error = "the shards hold " + std::to_string(rows.size()) + " of the sweep's " +
            std::to_string(plan.runs()) + " runs";
  }
  if (!error.empty()) {
    std::cerr << "error: merge: " << error << "\n";
    return kExitBadInput;
  }
  const Json& pj = shards.front().plan;
  const std::string dir = args.out_dir.empty()
                              ? "results/" + pj.value("scenario", std::string()) + "/sweep"
                              : args.out_dir;
  SweepStore store(dir, IdentityLine(pj, ""), header);
  if (!store.Finish(rows, SweepJson(plan, pj, metrics, "", rows), &error)) {
    std::cerr << "error: merge: " << error << "\n";
    return kExitBadInput;
  }
  std::cout << "wrote " << dir << "/{sweep.csv,sweep.json}: " << shards.size() << " shard(s), "
            << rows.size() << " run(s)\n";
  return kExitOk;
}

}  // namespace mpsim
