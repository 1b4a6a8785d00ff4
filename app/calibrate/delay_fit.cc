#include "app/calibrate/delay_fit.h"

#include <algorithm>
#include <cmath>

namespace mpsim::calibrate {

const FamilyResult* DelayFit::Find(Family f) const {
  for (const FamilyResult& r : families) {
    if (r.params.family == f) return &r;
  }
  return nullptr;
}

double KsDistance(const std::vector<double>& x, const FamilyParams& p) {
  const double n = static_cast<double>(x.size());
  double d = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double f = FittedCdf(p, x[i]);
    d = std::max({d, (static_cast<double>(i) + 1) / n - f, f - static_cast<double>(i) / n});
  }
  return d;
}

double EmpiricalQuantile(const std::vector<double>& x, double p) {
  const double h = (static_cast<double>(x.size()) - 1) * p;
  const size_t lo = static_cast<size_t>(std::floor(h));
  if (lo + 1 >= x.size()) return x.back();
  return x[lo] + (h - static_cast<double>(lo)) * (x[lo + 1] - x[lo]);
}

bool FitDelay(const std::vector<double>& seconds, DelayFit* out, std::string* why) {
  if (seconds.size() < kMinFitSamples) {
    *why = std::to_string(seconds.size()) + " samples; a fit needs at least " +
           std::to_string(kMinFitSamples);
    return false;
  }
  std::vector<double> x = seconds;
  std::sort(x.begin(), x.end());
  if (x.front() == x.back()) {
    *why = "every sample is the same; nothing to fit";
    return false;
  }
  *out = {.n = x.size(),
          .observed_median = EmpiricalQuantile(x, 0.5),
          .observed_p99 = EmpiricalQuantile(x, 0.99)};
  for (Family f : {Family::kLognormal, Family::kGamma, Family::kWeibull}) {
    FamilyResult r;
    std::string failed;
    if (!FitFamily(f, x, &r.params, &failed)) continue;
    r.ks = KsDistance(x, r.params);
    r.median = FittedQuantile(r.params, 0.5);
    r.p99 = FittedQuantile(r.params, 0.99);
    out->families.push_back(r);
  }
  for (size_t i = 1; i < out->families.size(); ++i) {
    if (out->families[i].ks < out->families[out->chosen].ks) out->chosen = i;
  }
  return true;
}

}  // namespace mpsim::calibrate
