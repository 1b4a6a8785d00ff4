// controllers/noderefutil/util_test.go (TestIsNodeAvaialble, TestGetReadyCondition,
// TestIsNodeReady), docs/reference/capi-core.md §6.11, and the providerID keys of §2.8.
#include "controller/noderef_util.h"

#include <gtest/gtest.h>

#include "controller/provider_id.h"

namespace mpsim {
namespace {

constexpr Time kNow = 10 * kHour;

Node WithConditions(Conditions cs) {
  Node n;
  n.status.conditions = std::move(cs);
  return n;
}

Node ReadyAt(Time ltt) {
  return WithConditions({{.type = "Ready", .status = "True", .last_transition_time = ltt}});
}

// ---- TestIsNodeAvaialble (upstream spelling) ----

TEST(IsNodeAvaialble, NoNode) { EXPECT_FALSE(IsNodeAvailable(nullptr, 0, kNow)); }

TEST(IsNodeAvaialble, NoStatus) {
  Node n;
  EXPECT_FALSE(IsNodeAvailable(&n, 0, kNow));
}

TEST(IsNodeAvaialble, NoCondition) {
  Node n = WithConditions({});
  EXPECT_FALSE(IsNodeAvailable(&n, 0, kNow));
}

TEST(IsNodeAvaialble, NoReadyCondition) {
  Node n = WithConditions({{.type = "DiskPressure", .status = "True"}});
  EXPECT_FALSE(IsNodeAvailable(&n, 0, kNow));
}

TEST(IsNodeAvaialble, ReadyConditionTrueMinReadySeconds0LastTransitionTimeNow) {
  Node n = ReadyAt(kNow);
  EXPECT_TRUE(IsNodeAvailable(&n, 0, kNow));
}

TEST(IsNodeAvaialble, ReadyConditionTrueMinReadySeconds0LastTransitionTimePast) {
  Node n = ReadyAt(kNow - 700 * kSecond);
  EXPECT_TRUE(IsNodeAvailable(&n, 0, kNow));
}

TEST(IsNodeAvaialble, ReadyConditionTrueMinReadySeconds300LastTransitionTimeNow) {
  Node n = ReadyAt(kNow);
  EXPECT_FALSE(IsNodeAvailable(&n, 300, kNow));
}

TEST(IsNodeAvaialble, ReadyConditionTrueMinReadySeconds300LastTransitionTimePast) {
  Node n = ReadyAt(kNow - 700 * kSecond);
  EXPECT_TRUE(IsNodeAvailable(&n, 300, kNow));
}

TEST(IsNodeAvaialble, ReadyConditionFalse) {
  Node n = WithConditions({{.type = "Ready", .status = "False"}});
  EXPECT_FALSE(IsNodeAvailable(&n, 0, kNow));
}

TEST(IsNodeAvaialble, ReadyConditionUnknown) {
  Node n = WithConditions({{.type = "Ready", .status = "Unknown"}});
  EXPECT_FALSE(IsNodeAvailable(&n, 0, kNow));
}

// Not upstream: the comparison is strict (LTT + minReadySeconds < now).
TEST(IsNodeAvaialble, ExactlyMinReadySecondsAgoIsNotYetAvailable) {
  Node n = ReadyAt(kNow - 300 * kSecond);
  EXPECT_FALSE(IsNodeAvailable(&n, 300, kNow));
}

// ---- TestGetReadyCondition ----

TEST(GetReadyCondition, NoStatus) { EXPECT_EQ(GetReadyCondition(nullptr), nullptr); }

TEST(GetReadyCondition, NoCondition) {
  NodeStatus s;
  EXPECT_EQ(GetReadyCondition(&s), nullptr);
}

TEST(GetReadyCondition, NoReadyCondition) {
  NodeStatus s{.conditions = {{.type = "DiskPressure", .status = "True"}}};
  EXPECT_EQ(GetReadyCondition(&s), nullptr);
}

TEST(GetReadyCondition, ReadyConditionTrue) {
  NodeStatus s{.conditions = {{.type = "Ready", .status = "True"}}};
  ASSERT_NE(GetReadyCondition(&s), nullptr);
  EXPECT_EQ(*GetReadyCondition(&s), (Condition{.type = "Ready", .status = "True"}));
}

TEST(GetReadyCondition, ReadyConditionFalse) {
  NodeStatus s{.conditions = {{.type = "Ready", .status = "False"}}};
  ASSERT_NE(GetReadyCondition(&s), nullptr);
  EXPECT_EQ(*GetReadyCondition(&s), (Condition{.type = "Ready", .status = "False"}));
}

TEST(GetReadyCondition, ReadyConditionUnknown) {
  NodeStatus s{.conditions = {{.type = "Ready", .status = "Unknown"}}};
  ASSERT_NE(GetReadyCondition(&s), nullptr);
  EXPECT_EQ(*GetReadyCondition(&s), (Condition{.type = "Ready", .status = "Unknown"}));
}

// ---- TestIsNodeReady ----

TEST(IsNodeReady, NoNode) { EXPECT_FALSE(IsNodeReady(nullptr)); }

TEST(IsNodeReady, NoStatus) {
  Node n;
  EXPECT_FALSE(IsNodeReady(&n));
}

TEST(IsNodeReady, NoCondition) {
  Node n = WithConditions({});
  EXPECT_FALSE(IsNodeReady(&n));
}

TEST(IsNodeReady, NoReadyCondition) {
  Node n = WithConditions({{.type = "DiskPressure", .status = "True"}});
  EXPECT_FALSE(IsNodeReady(&n));
}

TEST(IsNodeReady, ReadyConditionTrue) {
  Node n = WithConditions({{.type = "Ready", .status = "True"}});
  EXPECT_TRUE(IsNodeReady(&n));
}

TEST(IsNodeReady, ReadyConditionFalse) {
  Node n = WithConditions({{.type = "Ready", .status = "False"}});
  EXPECT_FALSE(IsNodeReady(&n));
}

TEST(IsNodeReady, ReadyConditionUnknown) {
  Node n = WithConditions({{.type = "Ready", .status = "Unknown"}});
  EXPECT_FALSE(IsNodeReady(&n));
}

// ---- providerID keys (noderefutil.NewProviderID up to v1.2.0; exact since v1.5.0) ----

TEST(MachinePoolProviderIDKey, ExactKeepsTheWholeString) {
  EXPECT_EQ(ProviderIDKey("aws:///us-east-2a/i-0abc", ProviderIDMatch::kExact),
            "aws:///us-east-2a/i-0abc");
  EXPECT_EQ(ProviderIDKey("anything", ProviderIDMatch::kExact), "anything");
  EXPECT_EQ(ProviderIDKey("", ProviderIDMatch::kExact), std::nullopt);
}

TEST(MachinePoolProviderIDKey, LegacyKeepsTheTextAfterTheLastSlash) {
  const ProviderIDMatch legacy = ProviderIDMatch::kLegacyLastSegment;
  EXPECT_EQ(ProviderIDKey("aws:///us-east-2a/i-0abc", legacy), "i-0abc");
  EXPECT_EQ(ProviderIDKey("aws:////i-0abc", legacy), "i-0abc");
  EXPECT_EQ(ProviderIDKey("gce://project/zone/name", legacy), "name");
  EXPECT_EQ(ProviderIDKey("azure://westus2/id-nodepool1/0", legacy), "0");
}

TEST(MachinePoolProviderIDKey, LegacyRejectsWhatTheOldRegexRejects) {
  const ProviderIDMatch legacy = ProviderIDMatch::kLegacyLastSegment;
  EXPECT_EQ(ProviderIDKey("", legacy), std::nullopt);
  EXPECT_EQ(ProviderIDKey("aws:///i-0abc/", legacy), std::nullopt);  // ends with '/'
  EXPECT_EQ(ProviderIDKey("://i-0abc", legacy), std::nullopt);       // no cloud provider
  EXPECT_EQ(ProviderIDKey("i-0abc", legacy), std::nullopt);          // no "://"
  EXPECT_EQ(ProviderIDKey("aws://", legacy), std::nullopt);          // nothing after "://"
}

}  // namespace
}  // namespace mpsim
