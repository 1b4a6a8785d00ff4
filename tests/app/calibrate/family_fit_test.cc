#include "app/calibrate/family_fit.h"

#include <gtest/gtest.h>

#include <cmath>

#include "app/calibrate/delay_fit.h"

namespace mpsim::calibrate {
namespace {

const std::vector<double> kCalOneToTen = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

TEST(CalibrateFamilyFit, LognormalIsTheMeanAndSpreadOfTheLogs) {
  // ln x = 0, 1, 2: mean 1, (1/n) variance (1 + 0 + 1) / 3.
  FamilyParams p;
  std::string why;
  ASSERT_TRUE(FitFamily(Family::kLognormal, {1, std::exp(1.0), std::exp(2.0)}, &p, &why));
  EXPECT_NEAR(p.a, 1.0, 1e-12);
  EXPECT_NEAR(p.b, std::sqrt(2.0 / 3.0), 1e-12);
  // The lognormal's median is e^mu and its p99 e^(mu + 2.3263478740 sigma).
  EXPECT_NEAR(FittedQuantile(p, 0.5), std::exp(1.0), 1e-9);
  EXPECT_NEAR(FittedQuantile(p, 0.99), std::exp(1.0 + 2.3263478740408408 * p.b), 1e-9);
}

TEST(CalibrateFamilyFit, GammaMatchesScipy) {
  // scipy.stats.gamma.fit([1..10], floc=0) (SciPy 1.10.1): a=2.728444313979154,
  // scale=2.015800715382319.
  FamilyParams p;
  std::string why;
  ASSERT_TRUE(FitFamily(Family::kGamma, kCalOneToTen, &p, &why));
  EXPECT_NEAR(p.a, 2.728444313979154, 1e-6);
  EXPECT_NEAR(p.b, 2.015800715382319, 1e-6);
}

TEST(CalibrateFamilyFit, WeibullMatchesScipy) {
  // scipy.stats.weibull_min.fit([1..10], floc=0) (SciPy 1.10.1, a Nelder-Mead
  // search, so to its tolerance): c=1.9840428324531345, scale=6.195379949553667.
  FamilyParams p;
  std::string why;
  ASSERT_TRUE(FitFamily(Family::kWeibull, kCalOneToTen, &p, &why));
  EXPECT_NEAR(p.a, 1.9840428324531345, 1e-3);
  EXPECT_NEAR(p.b, 6.195379949553667, 1e-3);
}

TEST(CalibrateFamilyFit, CdfsAreTheTextbookOnes) {
  // Weibull shape 1 is the exponential: F(x) = 1 - e^(-x/scale).
  EXPECT_NEAR(FittedCdf({Family::kWeibull, 1.0, 2.0}, 2.0), 1 - std::exp(-1.0), 1e-12);
  // Gamma shape 1 is the same exponential.
  EXPECT_NEAR(FittedCdf({Family::kGamma, 1.0, 2.0}, 2.0), 1 - std::exp(-1.0), 1e-12);
  // A lognormal is at one half at its median.
  EXPECT_NEAR(FittedCdf({Family::kLognormal, std::log(40.0), 0.5}, 40.0), 0.5, 1e-12);
  EXPECT_EQ(FittedCdf({Family::kLognormal, 0, 1}, 0.0), 0.0);
}

TEST(CalibrateDelayFit, KsDistanceAndQuantilesByHand) {
  // One sample at the median of lognormal(0, 1): F = 1/2, so D = max(1 - 1/2, 1/2 - 0).
  EXPECT_NEAR(KsDistance({1.0}, {Family::kLognormal, 0, 1}), 0.5, 1e-12);
  // Type 7: h = (n - 1) p; {1,2,3,4} at 0.5 is 2.5, at 0.99 is 3 + 0.97.
  EXPECT_DOUBLE_EQ(EmpiricalQuantile({1, 2, 3, 4}, 0.5), 2.5);
  EXPECT_NEAR(EmpiricalQuantile({1, 2, 3, 4}, 0.99), 3.97, 1e-12);
}

TEST(CalibrateDelayFit, RefusesTooFewOrIdenticalSamples) {
  DelayFit fit;
  std::string why;
  EXPECT_FALSE(FitDelay({1, 2, 3, 4}, &fit, &why));
  EXPECT_NE(why.find("at least 5"), std::string::npos);
  EXPECT_FALSE(FitDelay({3, 3, 3, 3, 3}, &fit, &why));
  EXPECT_NE(why.find("the same"), std::string::npos);
}

TEST(CalibrateDelayFit, FitsEveryFamilyAndChoosesTheSmallestKs) {
  DelayFit fit;
  std::string why;
  ASSERT_TRUE(FitDelay(kCalOneToTen, &fit, &why));
  ASSERT_EQ(fit.families.size(), 3u);
  EXPECT_EQ(fit.n, 10u);
  EXPECT_DOUBLE_EQ(fit.observed_median, 5.5);
  for (const FamilyResult& r : fit.families) EXPECT_LE(fit.families[fit.chosen].ks, r.ks);
}

}  // namespace
}  // namespace mpsim::calibrate
