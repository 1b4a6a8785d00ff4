#include "api/meta.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

TEST(SetCondition, KeepsTransitionTimeWhenStatusUnchanged) {
  Conditions cs;
  SetCondition(&cs, {.type = "Ready", .status = "False"}, 10);
  SetCondition(&cs, {.type = "Ready", .status = "False", .reason = "Still"}, 20);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].last_transition_time, 10);
  EXPECT_EQ(cs[0].reason, "Still");
  SetCondition(&cs, {.type = "Ready", .status = "True"}, 30);
  EXPECT_EQ(cs[0].last_transition_time, 30);
  EXPECT_TRUE(IsConditionTrue(cs, "Ready"));
  EXPECT_EQ(FindCondition(cs, "Other"), nullptr);
}

}  // namespace
}  // namespace mpsim
