// The suggestion attached to an unknown key or value.
#include <gtest/gtest.h>

#include "sim/scenario_schema.h"

namespace mpsim::scenario {
namespace {

TEST(DidYouMean, SwappedLettersAreOneEdit) {
  EXPECT_EQ(DidYouMean("medain", {"mean", "median", "p99"}), "; did you mean \"median\"?");
  EXPECT_EQ(DidYouMean("rpelicas", {"replicas", "version"}), "; did you mean \"replicas\"?");
}

TEST(DidYouMean, CaseAndOneTypo) {
  EXPECT_EQ(DidYouMean("LaunchDelya", {"launchDelay", "deleteDelay"}),
            "; did you mean \"launchDelay\"?");
}

TEST(DidYouMean, NothingCloseIsNoSuggestion) {
  EXPECT_EQ(DidYouMean("frobnicate", {"run", "validate", "check"}), "");
  EXPECT_EQ(DidYouMean("x", {}), "");
}

}  // namespace
}  // namespace mpsim::scenario
