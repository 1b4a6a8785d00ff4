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

namespace mpsim {
namespace {

TEST(ControllerOwner, OnlyTheControllerReferenceOfThatKind) {
  ObjectMeta m;
  m.owner_references = {{.kind = "MachinePool", .name = "not-controller", .controller = false},
                        {.kind = "Cluster", .name = "c", .controller = true},
                        {.kind = "MachinePool", .name = "mp-0", .controller = true}};
  const OwnerReference* o = ControllerOwner(m, "MachinePool");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->name, "mp-0");
  EXPECT_EQ(ControllerOwner(m, "Machine"), nullptr);
}

TEST(HasFinalizer, ExactNameOnly) {
  ObjectMeta m;
  m.finalizers = {"a.example.com", "b.example.com"};
  EXPECT_TRUE(HasFinalizer(m, "b.example.com"));
  EXPECT_FALSE(HasFinalizer(m, "b.example"));
}

// OwnerReference's hand-written == must agree with a field-by-field compare:
// each field, alone, makes two references differ.
TEST(OwnerReferenceEquality, EveryFieldCounts) {
  const OwnerReference ref{.api_version = "cluster.x-k8s.io/v1beta2",
                           .kind = "MachinePool",
                           .name = "mp-0",
                           .uid = SharedString::Pinned("0f6d2c1e-uid"),
                           .controller = true};
  OwnerReference same = ref;
  same.uid = SharedString::Pinned(std::string("0f6d2c1e-uid"));  // equal text, another buffer
  EXPECT_EQ(ref, same);
  auto differs = [&](auto change) {
    OwnerReference other = ref;
    change(&other);
    return !(other == ref) && !(ref == other);
  };
  EXPECT_TRUE(differs([](OwnerReference* o) { o->api_version = "cluster.x-k8s.io/v1beta1"; }));
  EXPECT_TRUE(differs([](OwnerReference* o) { o->kind = "MachinePoo1"; }));
  EXPECT_TRUE(differs([](OwnerReference* o) { o->name = "mp-1"; }));
  EXPECT_TRUE(differs([](OwnerReference* o) { o->uid = SharedString::Pinned("0f6d2c1e-uie"); }));
  EXPECT_TRUE(differs([](OwnerReference* o) { o->controller = false; }));
  EXPECT_TRUE(differs([](OwnerReference* o) { o->block_owner_deletion = true; }));
  EXPECT_TRUE(differs([](OwnerReference* o) { o->name = "mp-0-with-a-name-past-sixteen"; }));
}

}  // namespace
}  // namespace mpsim
