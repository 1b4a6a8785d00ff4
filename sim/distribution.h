// Samplers for the delay distributions a scenario names. Our own code, never
// std::*_distribution, whose output differs between standard libraries.
#pragma once

#include <string>
#include <vector>

#include "api/time.h"
#include "sim/random.h"

namespace mpsim {

// A validated distribution of durations. Parameters are in microseconds.
struct DistSpec {
  enum class Kind { kConstant, kUniform, kExponential, kLognormal, kNormal, kEmpirical };
  Kind kind = Kind::kConstant;
  double value = 0;             // constant
  double min = 0;               // uniform
  double max = 0;               // uniform
  double mean = 0;              // exponential, normal
  double stddev = 0;            // normal
  double mu = 0;                // lognormal, of ln(microseconds)
  double sigma = 0;             // lognormal
  std::vector<double> samples;  // empirical: drawn uniformly among these

  static DistSpec Constant(Duration v);
  static DistSpec Uniform(Duration lo, Duration hi);
  static DistSpec Exponential(Duration mean);
  // Lognormal from its median and 99th percentile. REQUIRES: 0 < median <= p99.
  static DistSpec LognormalMedianP99(Duration median, Duration p99);
  static DistSpec LognormalMuSigma(double mu, double sigma);
  static DistSpec Normal(Duration mean, Duration stddev);
  static DistSpec Empirical(std::vector<Duration> samples);

  // One phrase for reports, e.g. "lognormal(median 40s, p99 2m)".
  std::string Describe() const;
};

// Draws one duration (>= 0, rounded to whole microseconds; uniform gives
// [min, max)). Consumes a fixed number of draws per kind: constant 0;
// uniform, exponential, empirical 1; lognormal, normal 2.
Duration Sample(const DistSpec& d, Rng& rng);

// Standard normal deviate (Box-Muller on two Uniform01 draws; the second
// deviate is discarded so that every call consumes exactly two draws).
double StandardNormal(Rng& rng);

}  // namespace mpsim
