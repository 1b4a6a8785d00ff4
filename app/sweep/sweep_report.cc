#include "app/sweep/sweep_report.h"

#include <cmath>
#include <cstdio>
#include <set>

#include "app/sweep/sweep_stats.h"
#include "app/version.h"
#include "sim/random.h"

namespace mpsim {
namespace {

using Json = nlohmann::ordered_json;

// NaN and infinities become null, which JSON readers understand.
Json Num(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json DistributionJson(const Distribution& d) {
  return Json{{"n", d.n},
              {"mean", Num(d.mean)},
              {"stddev", Num(d.stddev)},
              {"ci95_low", Num(d.ci95_low)},
              {"ci95_high", Num(d.ci95_high)},
              {"p50", Num(d.p50)},
              {"p90", Num(d.p90)},
              {"p99", Num(d.p99)},
              {"max", Num(d.max)}};
}

Json PointJson(const SweepPlan& plan, const std::vector<std::string>& metrics, size_t point,
               const std::vector<const SweepRow*>& rows) {
  Json params = Json::object();
  const std::vector<size_t> at = plan.Coordinates(point);
  for (size_t i = 0; i < at.size(); ++i) {
    params[plan.params()[i].path] = plan.params()[i].values[at[i]];
  }
  Json stats = Json::object();
  for (size_t m = 0; m < metrics.size(); ++m) {
    std::vector<double> values;
    for (const SweepRow* r : rows) {
      if (!std::isnan(r->metrics[m])) values.push_back(r->metrics[m]);
    }
    stats[metrics[m]] = values.empty() ? Json{{"n", 0}} : DistributionJson(Describe(values));
  }
  return Json{{"point", point}, {"parameters", params}, {"runs", rows.size()}, {"metrics", stats}};
}

Json FitJson(const Fit& f) {
  return Json{{"intercept", Num(f.intercept)}, {"slope", Num(f.slope)}, {"r2", Num(f.r2)}};
}

// The fits of every metric against param `p`, over all runs.
Json FitsAgainst(const SweepPlan& plan, size_t p, const std::vector<std::string>& metrics,
                 const SweepRows& rows) {
  const std::vector<double>& xs = *plan.params()[p].numeric;
  Json fits = Json::object();
  for (size_t m = 0; m < metrics.size(); ++m) {
    std::vector<double> x, y;
    for (const auto& [run, row] : rows) {
      if (std::isnan(row.metrics[m])) continue;
      x.push_back(xs[plan.Coordinates(run / plan.seeds())[p]]);
      y.push_back(row.metrics[m]);
    }
    if (std::set<double>(x.begin(), x.end()).size() < 2) continue;
    Json f{{"n", x.size()}, {"linear", FitJson(FitLinear(x, y))}};
    if (*std::min_element(x.begin(), x.end()) > 0) f["log"] = FitJson(FitLog(x, y));
    fits[metrics[m]] = f;
  }
  return fits;
}

std::string HexHash(const std::string& text) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(HashName(text)));
  return buf;
}

}  // namespace

Json PlanJson(const SweepPlan& plan, const std::string& scenario_name,
              const std::string& scenario_text, const std::vector<std::string>& metrics) {
  Json params = Json::array();
  for (const SweepParam& p : plan.params()) {
    params.push_back(Json{{"path", p.path}, {"values", p.values}});
  }
  return Json{{"scenario", scenario_name},
              {"scenario_fnv1a", HexHash(scenario_text)},
              {"mpsim_version", VersionString()},
              {"root_seed", plan.root_seed()},
              {"seeds", plan.seeds()},
              {"parameters", params},
              {"metrics", metrics}};
}

void AddOverlayToPlan(const std::string& path, const std::string& text, Json* plan_json) {
  (*plan_json)["overlay"] = Json{{"path", path}, {"fnv1a", HexHash(text)}};
}

bool PlanFromJson(const Json& j, SweepPlan* plan, std::vector<std::string>* metrics,
                  std::string* error) {
  try {
    std::vector<SweepParam> params;
    for (const Json& p : j.at("parameters")) {
      params.push_back(MakeSweepParam(p.at("path").get<std::string>(),
                                      p.at("values").get<std::vector<std::string>>()));
    }
    *metrics = j.at("metrics").get<std::vector<std::string>>();
    *plan = SweepPlan(std::move(params), j.at("seeds").get<uint64_t>(),
                      j.at("root_seed").get<uint64_t>());
  } catch (const nlohmann::json::exception& e) {
    *error = std::string("not a sweep plan: ") + e.what();
    return false;
  }
  return true;
}

std::string IdentityLine(const Json& plan_json, const std::string& shard) {
  return Json{{"plan", plan_json}, {"shard", shard}}.dump();
}

std::string SweepJson(const SweepPlan& plan, const Json& plan_json,
                      const std::vector<std::string>& metrics, const std::string& shard,
                      const SweepRows& rows) {
  Json out{{"plan", plan_json}};
  if (!shard.empty()) out["shard"] = shard;
  out["runs"] = rows.size();
  std::vector<std::vector<const SweepRow*>> by_point(plan.points());
  for (const auto& [run, row] : rows) by_point[run / plan.seeds()].push_back(&row);
  Json points = Json::array();
  for (size_t p = 0; p < by_point.size(); ++p) {
    if (!by_point[p].empty()) points.push_back(PointJson(plan, metrics, p, by_point[p]));
  }
  out["points"] = points;
  Json fits = Json::object();
  for (size_t p = 0; p < plan.params().size(); ++p) {
    if (plan.params()[p].numeric) fits[plan.params()[p].path] = FitsAgainst(plan, p, metrics, rows);
  }
  out["fits"] = fits;
  return out.dump(2) + "\n";
}

}  // namespace mpsim
