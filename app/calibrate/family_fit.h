// Maximum-likelihood fits of a positive delay's distribution, in seconds,
// and the fitted distributions' CDF and quantiles (Boost.Math).
//   lognormal  closed form: mu and sigma are the mean and the (1/n) standard
//              deviation of ln x
//   gamma      Newton's method on the shape k of ln k - digamma(k) = ln(mean x) - mean(ln x),
//              from Minka's approximation; scale = mean x / k
//   Weibull    Newton's method on the shape k of
//              sum(x^k ln x) / sum(x^k) - 1/k - mean(ln x) = 0; scale = (mean x^k)^(1/k)
#pragma once

#include <string>
#include <vector>

namespace mpsim::calibrate {

enum class Family { kLognormal, kGamma, kWeibull };

// "lognormal", "gamma", "weibull".
const char* FamilyName(Family f);

// A fitted distribution. Lognormal: a = mu, b = sigma (of ln seconds);
// gamma: a = shape, b = scale (s); Weibull: a = shape, b = scale (s).
struct FamilyParams {
  Family family = Family::kLognormal;
  double a = 0;
  double b = 0;
};

// The fit of `family` to `x`. REQUIRES: every x > 0 and not all equal.
// False (with *why) only when Newton's method did not converge.
bool FitFamily(Family family, const std::vector<double>& x, FamilyParams* out, std::string* why);

double FittedCdf(const FamilyParams& p, double x);
double FittedQuantile(const FamilyParams& p, double probability);

// The parameters' names as the report prints them, e.g. {"mu", "sigma"}.
std::pair<const char*, const char*> ParamNames(Family f);

}  // namespace mpsim::calibrate
