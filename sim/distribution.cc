#include "sim/distribution.h"

#include <cassert>
#include <cmath>
#include <numbers>
#include <utility>

#include "sim/duration.h"

namespace mpsim {
namespace {

// z of the standard normal's 99th percentile.
constexpr double kZ99 = 2.3263478740408408;
// Draws past this many microseconds (~146 years) saturate; it also keeps
// std::llround inside int64 for any double.
constexpr double kMaxSample = 4.6e15;

Duration Round(double us) {
  if (!(us > 0)) return 0;  // also maps NaN to zero
  return std::llround(us < kMaxSample ? us : kMaxSample);
}

std::string Fmt(double us) { return FormatDuration(Round(us)); }

double Empirical(const std::vector<double>& samples, Rng& rng) {
  assert(!samples.empty());
  if (samples.empty()) return 0;  // validation rejects this; stay defined in release builds
  return samples[rng.Below(samples.size())];
}

std::string DescribeEmpirical(const std::vector<double>& samples) {
  if (samples.empty()) return "empirical(no samples)";
  double lo = samples[0], hi = samples[0];
  for (const double s : samples) {
    lo = s < lo ? s : lo;
    hi = s > hi ? s : hi;
  }
  return "empirical(" + std::to_string(samples.size()) + " samples, " + Fmt(lo) + ".." + Fmt(hi) +
         ")";
}

}  // namespace

DistSpec DistSpec::Constant(Duration v) {
  DistSpec d;
  d.kind = Kind::kConstant;
  d.value = static_cast<double>(v);
  return d;
}

DistSpec DistSpec::Uniform(Duration lo, Duration hi) {
  DistSpec d;
  d.kind = Kind::kUniform;
  d.min = static_cast<double>(lo);
  d.max = static_cast<double>(hi);
  return d;
}

DistSpec DistSpec::Exponential(Duration mean) {
  DistSpec d;
  d.kind = Kind::kExponential;
  d.mean = static_cast<double>(mean);
  return d;
}

DistSpec DistSpec::LognormalMedianP99(Duration median, Duration p99) {
  assert(median > 0 && median <= p99);
  const double mu = std::log(static_cast<double>(median));
  return LognormalMuSigma(mu, (std::log(static_cast<double>(p99)) - mu) / kZ99);
}

DistSpec DistSpec::LognormalMuSigma(double mu, double sigma) {
  DistSpec d;
  d.kind = Kind::kLognormal;
  d.mu = mu;
  d.sigma = sigma;
  return d;
}

DistSpec DistSpec::Normal(Duration mean, Duration stddev) {
  DistSpec d;
  d.kind = Kind::kNormal;
  d.mean = static_cast<double>(mean);
  d.stddev = static_cast<double>(stddev);
  return d;
}

DistSpec DistSpec::Empirical(std::vector<Duration> samples) {
  DistSpec d;
  d.kind = Kind::kEmpirical;
  d.samples.assign(samples.begin(), samples.end());
  return d;
}

std::string DistSpec::Describe() const {
  switch (kind) {
    case Kind::kConstant:
      return "constant(" + Fmt(value) + ")";
    case Kind::kUniform:
      return "uniform(" + Fmt(min) + ", " + Fmt(max) + ")";
    case Kind::kExponential:
      return "exponential(mean " + Fmt(mean) + ")";
    case Kind::kLognormal:
      return "lognormal(median " + Fmt(std::exp(mu)) + ", p99 " + Fmt(std::exp(mu + kZ99 * sigma)) +
             ")";
    case Kind::kNormal:
      return "normal(mean " + Fmt(mean) + ", stddev " + Fmt(stddev) + ")";
    case Kind::kEmpirical:
      return DescribeEmpirical(samples);
  }
  return "unknown distribution";
}

double StandardNormal(Rng& rng) {
  // Box-Muller, cosine branch only: caching the sine deviate would make the
  // number of draws per sample depend on history, so two draws every time.
  const double u1 = rng.Uniform01();
  const double u2 = rng.Uniform01();
  return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// 1 - U is exact for U on the 2^-53 grid and lies in (0, 1], so the logs
// below are finite. Draws per call are fixed by kind (constant 0; uniform, exponential and
// empirical 1; lognormal and normal 2), so a stream's later draws never
// depend on the values drawn before.
Duration Sample(const DistSpec& d, Rng& rng) {
  switch (d.kind) {
    case DistSpec::Kind::kConstant:
      return Round(d.value);
    case DistSpec::Kind::kUniform:
      // Floor, not round: whole microseconds in [min, max), max never drawn.
      return Round(std::floor(d.min + (d.max - d.min) * rng.Uniform01()));
    case DistSpec::Kind::kExponential:
      return Round(-d.mean * std::log(1.0 - rng.Uniform01()));
    case DistSpec::Kind::kLognormal:
      return Round(std::exp(d.mu + d.sigma * StandardNormal(rng)));
    case DistSpec::Kind::kNormal:
      return Round(d.mean + d.stddev * StandardNormal(rng));
    case DistSpec::Kind::kEmpirical:
      return Round(Empirical(d.samples, rng));
  }
  return 0;
}

}  // namespace mpsim
