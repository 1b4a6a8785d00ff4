#include "sim/duration.h"

#include <gtest/gtest.h>

#include <string>

namespace mpsim {
namespace {

Duration Parse(const std::string& text) {
  Duration d = -1;
  std::string error;
  EXPECT_TRUE(ParseDuration(text, &d, &error)) << text << ": " << error;
  return d;
}

std::string ParseError(const std::string& text) {
  Duration d = -1;
  std::string error;
  EXPECT_FALSE(ParseDuration(text, &d, &error)) << text << " parsed as " << d;
  EXPECT_EQ(d, -1) << "output must be untouched on failure";
  return error;
}

TEST(DurationTest, ParsesEachUnit) {
  EXPECT_EQ(Parse("0"), 0);
  EXPECT_EQ(Parse("0s"), 0);
  EXPECT_EQ(Parse("61us"), 61);
  EXPECT_EQ(Parse("250ms"), 250 * kMillisecond);
  EXPECT_EQ(Parse("45s"), 45 * kSecond);
  EXPECT_EQ(Parse("10m"), 10 * kMinute);
  EXPECT_EQ(Parse("2h"), 2 * kHour);
}

TEST(DurationTest, ParsesCombinations) {
  EXPECT_EQ(Parse("1m30s"), 90 * kSecond);
  EXPECT_EQ(Parse("1h2m3s4ms5us"), kHour + 2 * kMinute + 3 * kSecond + 4 * kMillisecond + 5);
  EXPECT_EQ(Parse("1s500ms"), 1500 * kMillisecond);
}

TEST(DurationTest, ParsesDecimalsExactly) {
  EXPECT_EQ(Parse("1.5s"), 1'500'000);
  EXPECT_EQ(Parse("0.1s"), 100'000);
  EXPECT_EQ(Parse("1.5h"), 90 * kMinute);
  EXPECT_EQ(Parse("0.000001s"), 1);
  EXPECT_EQ(Parse("0.0000005s"), 1);  // half a microsecond rounds up
  EXPECT_EQ(Parse("0.0000004s"), 0);
  EXPECT_EQ(Parse("2.5us"), 3);
  EXPECT_EQ(Parse("0.333333333333333333h"), 1'200'000'000);
}

TEST(DurationTest, RejectsEmpty) { EXPECT_NE(ParseError("").find("empty"), std::string::npos); }

TEST(DurationTest, RejectsNegative) {
  EXPECT_NE(ParseError("-5s").find("negative duration \"-5s\""), std::string::npos);
}

TEST(DurationTest, RejectsMissingUnit) {
  const std::string error = ParseError("45");
  EXPECT_EQ(error,
            "missing unit after 45 in \"45\"; use us, ms, s, m or h (e.g. 250ms, 45s, 1m30s)");
  ParseError("1m30");
  ParseError("1.5");
}

TEST(DurationTest, RejectsUnknownUnit) {
  EXPECT_EQ(ParseError("5x"),
            "unknown unit 'x' in \"5x\"; use us, ms, s, m or h (e.g. 250ms, 45s, 1m30s)");
  EXPECT_NE(ParseError("5min").find("'min'"), std::string::npos);
  EXPECT_NE(ParseError("5S").find("'S'"), std::string::npos);
  EXPECT_NE(ParseError("3d").find("'d'"), std::string::npos);
}

TEST(DurationTest, RejectsGarbage) {
  for (const char* text :
       {"abc", "s", "1 s", " 1s", "1s ", "+1s", "1..5s", "1.s", ".5s", "1s-", "1e3s", "1,5s"}) {
    const std::string error = ParseError(text);
    EXPECT_NE(error.find(std::string("\"") + text + "\""), std::string::npos) << error;
    EXPECT_NE(error.find("us, ms, s, m or h"), std::string::npos) << error;
  }
}

TEST(DurationTest, RejectsOverflow) {
  EXPECT_EQ(Parse("876000h"), 876000 * kHour);  // 100 years of 365 days
  EXPECT_NE(ParseError("876001h").find("too long"), std::string::npos);
  ParseError("99999999999999999999999999s");
  ParseError("876000h1us");
  ParseError("0.0000000000000000001s");  // more decimals than anyone means
}

TEST(DurationTest, FormatsLargestUnitsFirst) {
  EXPECT_EQ(FormatDuration(0), "0s");
  EXPECT_EQ(FormatDuration(90 * kSecond), "1m30s");
  EXPECT_EQ(FormatDuration(1500 * kMillisecond), "1s500ms");
  EXPECT_EQ(FormatDuration(250 * kMillisecond), "250ms");
  EXPECT_EQ(FormatDuration(2 * kHour), "2h");
  EXPECT_EQ(FormatDuration(61), "61us");
  EXPECT_EQ(FormatDuration(kHour + 1), "1h1us");
  EXPECT_EQ(FormatDuration(-90 * kSecond), "-1m30s");
}

TEST(DurationTest, RoundTrips) {
  for (const Duration d : {Duration{0}, Duration{1}, Duration{999}, kSecond + 1, 3 * kHour + 7,
                           25 * kHour + 59 * kMinute + 59 * kSecond + 999'999, 876000 * kHour}) {
    EXPECT_EQ(Parse(FormatDuration(d)), d) << FormatDuration(d);
  }
  for (const char* text : {"1m30s", "250ms", "2h", "61us", "1h1m1s1ms1us"}) {
    EXPECT_EQ(FormatDuration(Parse(text)), text);
  }
}

}  // namespace
}  // namespace mpsim
