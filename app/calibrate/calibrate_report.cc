#include "app/calibrate/calibrate_report.h"

#include <cstdio>
#include <string>

namespace mpsim::calibrate {

using nlohmann::json;

namespace {

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string Padded(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string ParamsText(const FamilyParams& p) {
  const auto [a, b] = ParamNames(p.family);
  return std::string(a) + "=" + Fixed(p.a, 4) + " " + b + "=" + Fixed(p.b, 4);
}

void PrintFamilies(std::ostream& os, const DelayFit& fit) {
  os << "  " << Padded("family", 11) << Padded("parameters", 32) << Padded("KS", 8)
     << Padded("median", 10) << "p99\n";
  for (size_t i = 0; i < fit.families.size(); ++i) {
    const FamilyResult& r = fit.families[i];
    os << "  " << Padded(FamilyName(r.params.family), 11) << Padded(ParamsText(r.params), 32)
       << Padded(Fixed(r.ks, 4), 8) << Padded(Fixed(r.median, 1) + "s", 10) << Fixed(r.p99, 1)
       << "s" << (i == fit.chosen ? "  <- best fit" : "") << "\n";
  }
  os << "  " << Padded("observed", 51) << Padded(Fixed(fit.observed_median, 1) + "s", 10)
     << Fixed(fit.observed_p99, 1) << "s\n";
  const Family best = fit.families[fit.chosen].params.family;
  os << "  overlay: lognormal"
     << (best == Family::kLognormal
             ? "\n"
             : std::string(" (the scenario has no ") + FamilyName(best) + " distribution)\n");
}

void PrintUnused(std::ostream& os, const DelaySamples& s) {
  if (s.under_resolution > 0) {
    os << "  " << s.under_resolution << " of 0s (under the timestamps' 1 s) counted as 0.5s\n";
  }
  for (const UnusedRows& u : s.unused) {
    os << "  not used: " << u.count << " " << u.why << " (first: " << u.example << ")\n";
  }
}

json FamilyJson(const FamilyResult& r) {
  const auto [a, b] = ParamNames(r.params.family);
  return {{"family", FamilyName(r.params.family)},
          {"params", {{a, r.params.a}, {b, r.params.b}}},
          {"ks", r.ks},
          {"median_s", r.median},
          {"p99_s", r.p99}};
}

json DelayJson(const DelayCalibration& d) {
  json out = {{"key", d.samples.key},
              {"what", d.samples.what},
              {"samples", d.samples.seconds.size()},
              {"under_resolution", d.samples.under_resolution},
              {"fitted", d.fitted},
              {"unused", json::array()}};
  for (const UnusedRows& u : d.samples.unused) {
    out["unused"].push_back({{"why", u.why}, {"count", u.count}, {"example", u.example}});
  }
  if (!d.fitted) {
    out["not_fitted"] = d.not_fitted;
    return out;
  }
  out["families"] = json::array();
  for (const FamilyResult& r : d.fit.families) out["families"].push_back(FamilyJson(r));
  out["chosen"] = FamilyName(d.fit.families[d.fit.chosen].params.family);
  out["written"] = "lognormal";
  out["observed"] = {{"median_s", d.fit.observed_median}, {"p99_s", d.fit.observed_p99}};
  return out;
}

}  // namespace

void PrintCalibrateReport(std::ostream& os, const Calibration& c) {
  os << "mpsim calibrate: " << c.nodes << " Nodes, " << c.instances << " instances, " << c.pools
     << " MachinePools\n";
  for (const DelayCalibration& d : c.delays) {
    os << "\n"
       << d.samples.key << " (" << d.samples.what << "): " << d.samples.seconds.size()
       << " samples\n";
    if (d.fitted) {
      PrintFamilies(os, d.fit);
    } else {
      os << "  not fitted: " << d.not_fitted << "\n";
    }
    PrintUnused(os, d.samples);
  }
}

json CalibrateReportJson(const Calibration& c) {
  json out = {{"nodes", c.nodes},
              {"instances", c.instances},
              {"machine_pools", c.pools},
              {"provider_id_set_by_kubelet", c.provider_id_by_kubelet},
              {"delays", json::array()}};
  for (const DelayCalibration& d : c.delays) out["delays"].push_back(DelayJson(d));
  return out;
}

}  // namespace mpsim::calibrate
