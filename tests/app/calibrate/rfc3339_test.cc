#include "app/calibrate/rfc3339.h"

#include <gtest/gtest.h>

namespace mpsim::calibrate {
namespace {

// 2026-03-01T10:00:00Z is 1772359200 s after the epoch: 56 years from 1970
// with 14 leap days (1972..2024) make 20454 days, January and February 59
// more, 20513 * 86400 + 10 * 3600 = 1772359200.
constexpr int64_t kCalMarch1At10 = 1772359200LL * 1000000;

TEST(CalibrateRfc3339, ReadsUtcAndOffsetsToTheSameInstant) {
  int64_t t = 0;
  ASSERT_TRUE(ParseRfc3339("2026-03-01T10:00:00Z", &t));
  EXPECT_EQ(t, kCalMarch1At10);
  ASSERT_TRUE(ParseRfc3339("2026-03-01T10:00:00+00:00", &t));
  EXPECT_EQ(t, kCalMarch1At10);
  ASSERT_TRUE(ParseRfc3339("2026-03-01T02:00:00.123-08:00", &t));
  EXPECT_EQ(t, kCalMarch1At10 + 123000);
  ASSERT_TRUE(ParseRfc3339("1970-01-01T00:00:00Z", &t));
  EXPECT_EQ(t, 0);
}

TEST(CalibrateRfc3339, KeepsMicrosecondsAndDropsFinerDigits) {
  int64_t t = 0;
  // Azure prints seven fractional digits: the seventh is below a microsecond.
  ASSERT_TRUE(ParseRfc3339("2026-03-01T10:00:00.1234567+00:00", &t));
  EXPECT_EQ(t, kCalMarch1At10 + 123456);
}

TEST(CalibrateRfc3339, RefusesWhatIsNoDateTime) {
  int64_t t = 0;
  EXPECT_FALSE(ParseRfc3339("2026-03-01 10:00:00Z", &t));  // no T
  EXPECT_FALSE(ParseRfc3339("2026-03-01T10:00:00", &t));   // no zone
  EXPECT_FALSE(ParseRfc3339("2026-02-29T10:00:00Z", &t));  // 2026 is no leap year
  EXPECT_FALSE(ParseRfc3339("2026-13-01T10:00:00Z", &t));
  EXPECT_FALSE(ParseRfc3339("2026-03-01T10:00:00.Z", &t));  // a dot without digits
  EXPECT_FALSE(ParseRfc3339("yesterday", &t));
  EXPECT_TRUE(ParseRfc3339("2024-02-29T00:00:00Z", &t));
}

}  // namespace
}  // namespace mpsim::calibrate
