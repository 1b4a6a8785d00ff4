// One delay's samples fitted with every family (family_fit.h), each judged
// by its Kolmogorov-Smirnov distance to the samples; the smallest wins.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "app/calibrate/family_fit.h"

namespace mpsim::calibrate {

// Fewer samples say too little about a distribution's shape to choose one.
inline constexpr size_t kMinFitSamples = 5;

struct FamilyResult {
  FamilyParams params;
  double ks = 0;      // sup |empirical CDF - fitted CDF|
  double median = 0;  // of the fitted distribution, seconds
  double p99 = 0;
};

struct DelayFit {
  size_t n = 0;
  double observed_median = 0;  // seconds, by linear interpolation of the order statistics
  double observed_p99 = 0;
  std::vector<FamilyResult> families;  // lognormal, gamma, Weibull; those that converged
  size_t chosen = 0;                   // index in families of the smallest KS distance
  const FamilyResult* Find(Family f) const;
};

// The fit of `seconds` (every one > 0). False with *why when there are fewer
// than kMinFitSamples, or all are equal (no spread to fit).
bool FitDelay(const std::vector<double>& seconds, DelayFit* out, std::string* why);

// The Kolmogorov-Smirnov distance of sorted `x` to `p`: the largest of
// i/n - F(x_i) and F(x_i) - (i-1)/n over i = 1..n.
double KsDistance(const std::vector<double>& sorted_x, const FamilyParams& p);

// The p-quantile of sorted `x` by linear interpolation between order
// statistics (Hyndman and Fan's type 7, R's and NumPy's default).
double EmpiricalQuantile(const std::vector<double>& sorted_x, double p);

}  // namespace mpsim::calibrate
