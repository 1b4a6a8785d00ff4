#include "app/sweep/sweep_stats.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace mpsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Nearest rank, as app/report/summary.cc's Percentile. REQUIRES: sorted non-empty.
double Rank(const std::vector<double>& sorted, double q) {
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

// Solves [1 x] * [a b]' = y by least squares; Householder QR is stable where
// the normal equations lose digits (x of 10^4 squared).
Fit LeastSquares(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  assert(x.size() == y.size() && x.size() >= 2);
  Eigen::MatrixXd a(x.size(), 2);
  a.col(0).setOnes();
  a.col(1) = x;
  const Eigen::Vector2d coef = a.colPivHouseholderQr().solve(y);
  const double ss_res = (a * coef - y).squaredNorm();
  const double ss_tot = (y.array() - y.mean()).matrix().squaredNorm();
  return {coef(0), coef(1), ss_tot > 0 ? 1.0 - ss_res / ss_tot : kNaN};
}

}  // namespace

double StudentT95(size_t df) {
  // Two-sided 95% quantiles for df 1..30; beyond, the normal's 1.96 is within 2%.
  static constexpr double kT[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                  2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                  2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                  2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  assert(df >= 1);
  return df <= 30 ? kT[df - 1] : 1.96;
}

Distribution Describe(std::vector<double> values) {
  assert(!values.empty());
  std::sort(values.begin(), values.end());  // also makes the sums independent of order
  const Eigen::Map<const Eigen::ArrayXd> v(values.data(), static_cast<Eigen::Index>(values.size()));
  Distribution d;
  d.n = values.size();
  d.mean = v.mean();
  d.stddev = d.n > 1 ? std::sqrt((v - d.mean).square().sum() / static_cast<double>(d.n - 1)) : kNaN;
  const double half = d.n > 1 ? StudentT95(d.n - 1) * d.stddev / std::sqrt(d.n) : kNaN;
  d.ci95_low = d.mean - half;
  d.ci95_high = d.mean + half;
  d.p50 = Rank(values, 0.50);
  d.p90 = Rank(values, 0.90);
  d.p99 = Rank(values, 0.99);
  d.max = values.back();
  return d;
}

Fit FitLinear(const std::vector<double>& x, const std::vector<double>& y) {
  return LeastSquares(Eigen::Map<const Eigen::VectorXd>(x.data(), x.size()),
                      Eigen::Map<const Eigen::VectorXd>(y.data(), y.size()));
}

Fit FitLog(const std::vector<double>& x, const std::vector<double>& y) {
  const Eigen::VectorXd lx = Eigen::Map<const Eigen::ArrayXd>(x.data(), x.size()).log().matrix();
  return LeastSquares(lx, Eigen::Map<const Eigen::VectorXd>(y.data(), y.size()));
}

}  // namespace mpsim
