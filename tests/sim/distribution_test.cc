#include "sim/distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

namespace mpsim {
namespace {

constexpr int kDraws = 200000;

std::vector<Duration> Draw(const DistSpec& d, uint64_t seed, int n = kDraws) {
  Rng rng(seed);
  std::vector<Duration> out(n);
  for (Duration& x : out) x = Sample(d, rng);
  return out;
}

double Mean(const std::vector<Duration>& xs) {
  double sum = 0;
  for (const Duration x : xs) sum += static_cast<double>(x);
  return sum / static_cast<double>(xs.size());
}

double Stddev(const std::vector<Duration>& xs) {
  const double m = Mean(xs);
  double sum = 0;
  for (const Duration x : xs) sum += (static_cast<double>(x) - m) * (static_cast<double>(x) - m);
  return std::sqrt(sum / static_cast<double>(xs.size()));
}

// The q-quantile by sorting a copy (nearest rank).
double Quantile(std::vector<Duration> xs, double q) {
  std::sort(xs.begin(), xs.end());
  return static_cast<double>(xs[static_cast<size_t>(q * static_cast<double>(xs.size() - 1))]);
}

// Golden first draws from Rng(1). They pin our sampling code, not just the
// generator: a change here changes every simulated timeline. The same values
// came out of an independent Python transcription of the formulas in
// sim/distribution.cc (on the same libm).
TEST(DistributionTest, GoldenFirstDraws) {
  EXPECT_EQ(Draw(DistSpec::Constant(45 * kSecond), 1, 3),
            (std::vector<Duration>{45000000, 45000000, 45000000}));
  EXPECT_EQ(Draw(DistSpec::Uniform(10 * kSecond, 20 * kSecond), 1, 3),
            (std::vector<Duration>{17029218, 15204366, 15741057}));
  EXPECT_EQ(Draw(DistSpec::Exponential(30 * kSecond), 1, 3),
            (std::vector<Duration>{36412800, 22046376, 25606923}));
  EXPECT_EQ(Draw(DistSpec::LognormalMedianP99(40 * kSecond, 2 * kMinute), 1, 3),
            (std::vector<Duration>{19281607, 24783714, 62892884}));
  EXPECT_EQ(Draw(DistSpec::Normal(30 * kSecond, 5 * kSecond), 1, 3),
            (std::vector<Duration>{22273886, 24931762, 34791486}));
  EXPECT_EQ(Draw(DistSpec::Empirical({1 * kSecond, 2 * kSecond, 3 * kSecond}), 1, 3),
            (std::vector<Duration>{3000000, 2000000, 2000000}));
}

TEST(DistributionTest, GoldenStandardNormal) {
  Rng rng(1);
  EXPECT_DOUBLE_EQ(StandardNormal(rng), -1.5452228371402943);
}

TEST(DistributionTest, DrawCountsAreFixedPerKind) {
  const std::vector<std::pair<DistSpec, int>> cases = {
      {DistSpec::Constant(kSecond), 0},
      {DistSpec::Uniform(0, kSecond), 1},
      {DistSpec::Exponential(kSecond), 1},
      {DistSpec::Empirical({1, 2, 3}), 1},
      {DistSpec::LognormalMedianP99(kSecond, 3 * kSecond), 2},
      {DistSpec::Normal(kSecond, kSecond), 2},
  };
  for (const auto& [spec, draws] : cases) {
    Rng a(99), b(99);
    for (int i = 0; i < 1000; ++i) Sample(spec, a);
    for (int i = 0; i < 1000 * draws; ++i) b.Next();
    EXPECT_EQ(a.Next(), b.Next()) << spec.Describe();
  }
}

TEST(DistributionTest, ConstantIsExact) {
  for (const Duration x : Draw(DistSpec::Constant(7), 3, 100)) ASSERT_EQ(x, 7);
}

TEST(DistributionTest, UniformStaysInHalfOpenRange) {
  const auto xs = Draw(DistSpec::Uniform(10 * kSecond, 20 * kSecond), 2);
  for (const Duration x : xs) {
    ASSERT_GE(x, 10 * kSecond);
    ASSERT_LT(x, 20 * kSecond);
  }
  EXPECT_NEAR(Mean(xs), 15e6, 0.01 * 15e6);
  for (const Duration x : Draw(DistSpec::Uniform(5, 6), 4, 1000)) ASSERT_EQ(x, 5);
}

TEST(DistributionTest, ExponentialMeanWithinOnePercent) {
  const auto xs = Draw(DistSpec::Exponential(30 * kSecond), 3);
  EXPECT_NEAR(Mean(xs), 30e6, 0.01 * 30e6);
  for (const Duration x : xs) ASSERT_GE(x, 0);
}

TEST(DistributionTest, LognormalMedianAndP99WithinTwoPercent) {
  const auto xs = Draw(DistSpec::LognormalMedianP99(40 * kSecond, 2 * kMinute), 4);
  EXPECT_NEAR(Quantile(xs, 0.5), 40e6, 0.02 * 40e6);
  EXPECT_NEAR(Quantile(xs, 0.99), 120e6, 0.02 * 120e6);
}

TEST(DistributionTest, LognormalMuSigmaMatchesFormula) {
  const auto xs = Draw(DistSpec::LognormalMuSigma(std::log(5e6), 0.5), 5);
  EXPECT_NEAR(Quantile(xs, 0.5), 5e6, 0.02 * 5e6);
}

TEST(DistributionTest, NormalMomentsAndNeverNegative) {
  const auto xs = Draw(DistSpec::Normal(30 * kSecond, 5 * kSecond), 6);
  EXPECT_NEAR(Mean(xs), 30e6, 0.01 * 30e6);
  EXPECT_NEAR(Stddev(xs), 5e6, 0.02 * 5e6);
  // Mean one stddev above zero: about 16% would be negative before clipping.
  const auto wide = Draw(DistSpec::Normal(kSecond, kSecond), 7);
  for (const Duration x : wide) ASSERT_GE(x, 0);
  const auto zeros = std::count(wide.begin(), wide.end(), 0);
  EXPECT_NEAR(static_cast<double>(zeros) / kDraws, 0.1587, 0.01);
}

TEST(DistributionTest, EmpiricalOnlyReturnsGivenSamples) {
  const std::vector<Duration> given = {3 * kSecond, 5 * kSecond, 8 * kSecond, 13 * kSecond};
  const auto xs = Draw(DistSpec::Empirical(given), 8);
  std::set<Duration> seen(xs.begin(), xs.end());
  EXPECT_EQ(seen, std::set<Duration>(given.begin(), given.end()));
  for (const Duration g : given) {
    EXPECT_NEAR(static_cast<double>(std::count(xs.begin(), xs.end(), g)) / kDraws, 0.25, 0.01);
  }
}

TEST(DistributionTest, Describe) {
  EXPECT_EQ(DistSpec::Constant(45 * kSecond).Describe(), "constant(45s)");
  EXPECT_EQ(DistSpec::Uniform(10 * kSecond, 90 * kSecond).Describe(), "uniform(10s, 1m30s)");
  EXPECT_EQ(DistSpec::Exponential(250 * kMillisecond).Describe(), "exponential(mean 250ms)");
  EXPECT_EQ(DistSpec::LognormalMedianP99(40 * kSecond, 2 * kMinute).Describe(),
            "lognormal(median 40s, p99 2m)");
  EXPECT_EQ(DistSpec::Normal(30 * kSecond, 5 * kSecond).Describe(), "normal(mean 30s, stddev 5s)");
  EXPECT_EQ(DistSpec::Empirical({5 * kSecond, kSecond, 3 * kSecond}).Describe(),
            "empirical(3 samples, 1s..5s)");
}

}  // namespace
}  // namespace mpsim
