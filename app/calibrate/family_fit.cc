#include "app/calibrate/family_fit.h"

#include <Eigen/Core>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/weibull.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <cmath>

namespace mpsim::calibrate {
namespace {

// Newton's method converges in a handful of steps on these concave
// likelihoods; the bound only stops a pathological input.
constexpr int kMaxNewtonSteps = 200;
constexpr double kRelativeTolerance = 1e-12;

Eigen::ArrayXd AsArray(const std::vector<double>& x) {
  return Eigen::Map<const Eigen::ArrayXd>(x.data(), static_cast<Eigen::Index>(x.size()));
}

// One Newton step that keeps the shape positive (halving it instead).
double PositiveStep(double k, double step) { return k - step > 0 ? k - step : k / 2; }

void FitLognormal(const Eigen::ArrayXd& logs, FamilyParams* out) {
  const double mu = logs.mean();
  out->a = mu;
  out->b = std::sqrt((logs - mu).square().mean());
}

bool FitGamma(const Eigen::ArrayXd& x, const Eigen::ArrayXd& logs, FamilyParams* out) {
  const double s = std::log(x.mean()) - logs.mean();
  double k = (3 - s + std::sqrt((s - 3) * (s - 3) + 24 * s)) / (12 * s);  // Minka (2002)
  for (int i = 0; i < kMaxNewtonSteps; ++i) {
    const double f = std::log(k) - boost::math::digamma(k) - s;
    const double df = 1 / k - boost::math::trigamma(k);
    const double next = PositiveStep(k, f / df);
    const bool done = std::abs(next - k) <= kRelativeTolerance * k;
    k = next;
    if (done) {
      out->a = k;
      out->b = x.mean() / k;
      return true;
    }
  }
  return false;
}

// Logs shifted by ln(max x), so that every x^k is at most 1 and never overflows.
bool FitWeibull(const Eigen::ArrayXd& logs, FamilyParams* out) {
  const double top = logs.maxCoeff();
  const Eigen::ArrayXd y = logs - top;
  const double mean_y = y.mean();
  const double sd = std::sqrt((y - mean_y).square().mean());
  double k = M_PI / (std::sqrt(6.0) * sd);  // sd of ln x is pi / (k sqrt 6)
  for (int i = 0; i < kMaxNewtonSteps; ++i) {
    const Eigen::ArrayXd w = (k * y).exp();
    const double b = w.sum(), a = (w * y).sum(), c = (w * y.square()).sum();
    const double g = a / b - 1 / k - mean_y;
    const double dg = (c * b - a * a) / (b * b) + 1 / (k * k);
    const double next = PositiveStep(k, g / dg);
    const bool done = std::abs(next - k) <= kRelativeTolerance * k;
    k = next;
    if (done) {
      out->a = k;
      out->b = std::exp(top) * std::pow((k * y).exp().mean(), 1 / k);
      return true;
    }
  }
  return false;
}

}  // namespace

const char* FamilyName(Family f) {
  switch (f) {
    case Family::kLognormal:
      return "lognormal";
    case Family::kGamma:
      return "gamma";
    case Family::kWeibull:
      return "weibull";
  }
  return "?";
}

std::pair<const char*, const char*> ParamNames(Family f) {
  if (f == Family::kLognormal) return {"mu", "sigma"};
  return {"shape", "scale"};
}

bool FitFamily(Family family, const std::vector<double>& x, FamilyParams* out, std::string* why) {
  const Eigen::ArrayXd xs = AsArray(x);
  const Eigen::ArrayXd logs = xs.log();
  out->family = family;
  bool ok = true;
  if (family == Family::kLognormal) FitLognormal(logs, out);
  if (family == Family::kGamma) ok = FitGamma(xs, logs, out);
  if (family == Family::kWeibull) ok = FitWeibull(logs, out);
  if (!ok) *why = std::string(FamilyName(family)) + ": Newton's method did not converge";
  return ok;
}

double FittedCdf(const FamilyParams& p, double x) {
  if (x <= 0) return 0;
  switch (p.family) {
    case Family::kLognormal:
      return boost::math::cdf(boost::math::lognormal_distribution<double>(p.a, p.b), x);
    case Family::kGamma:
      return boost::math::cdf(boost::math::gamma_distribution<double>(p.a, p.b), x);
    case Family::kWeibull:
      return boost::math::cdf(boost::math::weibull_distribution<double>(p.a, p.b), x);
  }
  return 0;
}

double FittedQuantile(const FamilyParams& p, double probability) {
  switch (p.family) {
    case Family::kLognormal:
      return boost::math::quantile(boost::math::lognormal_distribution<double>(p.a, p.b),
                                   probability);
    case Family::kGamma:
      return boost::math::quantile(boost::math::gamma_distribution<double>(p.a, p.b), probability);
    case Family::kWeibull:
      return boost::math::quantile(boost::math::weibull_distribution<double>(p.a, p.b),
                                   probability);
  }
  return 0;
}

}  // namespace mpsim::calibrate
