// The statistics of a sweep: each metric's distribution over seeds, with a
// confidence interval of its mean, and least-squares scaling laws (Eigen).
#pragma once

#include <cstddef>
#include <vector>

namespace mpsim {

// A metric over the seeds of one point. NaN where n is too small to say.
struct Distribution {
  size_t n = 0;
  double mean = 0, stddev = 0;                // sample standard deviation (n - 1)
  double ci95_low = 0, ci95_high = 0;         // 95% interval of the mean (Student's t)
  double p50 = 0, p90 = 0, p99 = 0, max = 0;  // nearest rank, as summary.json's
};

// REQUIRES: !values.empty(). The order of `values` does not matter.
Distribution Describe(std::vector<double> values);

// The two-sided 95% quantile of Student's t with `df` degrees of freedom.
// REQUIRES: df >= 1.
double StudentT95(size_t df);

// y = intercept + slope * x (linear), or y = intercept + slope * ln(x) (log).
struct Fit {
  double intercept = 0, slope = 0;
  double r2 = 0;  // NaN when y does not vary
};

// Least squares over the pairs. REQUIRES: x.size() == y.size() >= 2 and x
// not constant; for FitLog every x > 0.
Fit FitLinear(const std::vector<double>& x, const std::vector<double>& y);
Fit FitLog(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace mpsim
