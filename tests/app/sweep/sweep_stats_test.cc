// Distributions and scaling-law fits against values worked out by hand.
#include "app/sweep/sweep_stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace mpsim {
namespace {

TEST(SweepStats, DescribeKnownValues) {
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sum of squares 32, sample variance 32/7.
  const Distribution d = Describe({9, 4, 2, 4, 5, 4, 7, 5});
  EXPECT_EQ(d.n, 8u);
  EXPECT_DOUBLE_EQ(d.mean, 5);
  EXPECT_DOUBLE_EQ(d.stddev, std::sqrt(32.0 / 7));
  const double half = 2.365 * std::sqrt(32.0 / 7) / std::sqrt(8.0);
  EXPECT_DOUBLE_EQ(d.ci95_low, 5 - half);
  EXPECT_DOUBLE_EQ(d.ci95_high, 5 + half);
  EXPECT_EQ(d.p50, 4);  // nearest rank: the 4th of 8
  EXPECT_EQ(d.p90, 9);  // the 8th (ceil 7.2)
  EXPECT_EQ(d.p99, 9);
  EXPECT_EQ(d.max, 9);
}

TEST(SweepStats, OneValueHasNoSpread) {
  const Distribution d = Describe({3});
  EXPECT_EQ(d.mean, 3);
  EXPECT_TRUE(std::isnan(d.stddev));
  EXPECT_TRUE(std::isnan(d.ci95_low));
  EXPECT_EQ(d.p99, 3);
}

TEST(SweepStats, OrderDoesNotMatter) {
  const Distribution a = Describe({0.1, 0.7, 0.2, 1e9, 3});
  const Distribution b = Describe({3, 1e9, 0.2, 0.7, 0.1});
  EXPECT_EQ(a.mean, b.mean);  // bit for bit: sweeps are byte-identical whatever --jobs
  EXPECT_EQ(a.stddev, b.stddev);
}

TEST(SweepStats, StudentT) {
  EXPECT_DOUBLE_EQ(StudentT95(1), 12.706);
  EXPECT_DOUBLE_EQ(StudentT95(30), 2.042);
  EXPECT_DOUBLE_EQ(StudentT95(1000), 1.96);
}

TEST(SweepStats, LinearFitOfExactLine) {
  const Fit f = FitLinear({100, 1000, 5000, 10000}, {3.5, 21.5, 101.5, 201.5});  // 1.5 + x/50
  EXPECT_NEAR(f.intercept, 1.5, 1e-9);
  EXPECT_NEAR(f.slope, 0.02, 1e-12);
  EXPECT_NEAR(f.r2, 1, 1e-12);
}

TEST(SweepStats, LogFitOfExactLog) {
  std::vector<double> x = {1, 10, 100, 1000}, y;
  for (double v : x) y.push_back(2 + 3 * std::log(v));
  const Fit f = FitLog(x, y);
  EXPECT_NEAR(f.intercept, 2, 1e-9);
  EXPECT_NEAR(f.slope, 3, 1e-9);
  EXPECT_NEAR(f.r2, 1, 1e-12);
}

TEST(SweepStats, RSquaredOfNoisyAndFlatData) {
  // y = x + e with e = +1, -1, -1, +1: slope 1, intercept 0, SSres 4.
  const Fit f = FitLinear({1, 2, 3, 4}, {2, 1, 2, 5});
  EXPECT_NEAR(f.slope, 1, 1e-12);
  EXPECT_NEAR(f.intercept, 0, 1e-12);
  EXPECT_NEAR(f.r2, 1 - 4.0 / 9.0, 1e-12);  // SStot: (2,1,2,5) around 2.5 is 9
  EXPECT_TRUE(std::isnan(FitLinear({1, 2, 3}, {4, 4, 4}).r2));
}

}  // namespace
}  // namespace mpsim
