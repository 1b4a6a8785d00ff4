// Kubernetes quantities as resource.Quantity reads them: MilliValue of a
// decimal number with a binary or decimal SI suffix or an exponent, rounded up.
#include "api/quantity.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

int64_t QuantityMilliOf(const char* text) {
  int64_t milli = -1;
  EXPECT_TRUE(ParseQuantityMilli(text, &milli)) << text;
  return milli;
}

TEST(Quantity, SuffixesScaleAsKubernetesDefinesThem) {
  EXPECT_EQ(QuantityMilliOf("4"), 4000);
  EXPECT_EQ(QuantityMilliOf("3500m"), 3500);
  EXPECT_EQ(QuantityMilliOf("1.5"), 1500);
  EXPECT_EQ(QuantityMilliOf("16Gi"), 16LL * 1024 * 1024 * 1024 * 1000);
  EXPECT_EQ(QuantityMilliOf("1Ki"), 1024 * 1000);
  EXPECT_EQ(QuantityMilliOf("2k"), 2'000'000);
  EXPECT_EQ(QuantityMilliOf("1G"), 1'000'000'000'000LL);
  EXPECT_EQ(QuantityMilliOf("2e3"), 2'000'000);
  EXPECT_EQ(QuantityMilliOf("+1"), 1000);
}

// MilliValue rounds up: 0.1m is one thousandth after rounding (quantity.go ScaledValue).
TEST(Quantity, FractionsOfAThousandthRoundUp) {
  EXPECT_EQ(QuantityMilliOf("0.1m"), 1);
  EXPECT_EQ(QuantityMilliOf("1n"), 1);
  EXPECT_EQ(QuantityMilliOf("0"), 0);
}

TEST(Quantity, TextThatIsNoQuantityIsRefused) {
  int64_t milli = 0;
  for (const char* bad : {"", "abc", "-1", "1Xi", "1.2.3", "Gi", "1 Gi", "1e", "99999999999Ei"}) {
    EXPECT_FALSE(ParseQuantityMilli(bad, &milli)) << bad;
  }
}

}  // namespace
}  // namespace mpsim
