// `never: true` with `after`: nothing matching `row` once `after` happened;
// an `after` that never happens fails rather than passing untested.
#include <gtest/gtest.h>

#include "app/check/expectations.h"

namespace mpsim {
namespace {

proto::Expectation NeverAfter() {
  proto::Expectation e;
  e.set_pool("mp-0");
  e.mutable_row()->set_kind("Instance");
  e.mutable_row()->set_to("Launching");
  e.mutable_after()->set_kind("BootstrapConfig");
  e.mutable_after()->set_to("2");
  e.set_never(true);
  return e;
}

std::vector<ExpectationResult> Check(const std::vector<TimelineRow>& rows) {
  proto::Scenario sc;
  *sc.mutable_spec()->add_expect() = NeverAfter();
  RunOutput out;
  out.summary.add_pools()->set_name("mp-0");
  for (const TimelineRow& r : rows) {
    out.recorder.Change(r.time, r.object_kind, r.object, r.field, r.from, r.to, r.pool);
  }
  return CheckExpectations(sc, out);
}

TimelineRow Launch(Time t) { return {t, "Instance", "i-1", "state", "", "Launching", "mp-0"}; }
TimelineRow Rotation(Time t, const std::string& n) {
  return {t, "BootstrapConfig", "mp-0", "tokenRotations", "", n, "mp-0"};
}

TEST(NeverAfter, PassesWhenTheRowOnlyCameBefore) {
  auto r = Check({Launch(1), Rotation(2, "1"), Rotation(3, "2")});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].passed) << r[0].message;
  EXPECT_EQ(r[0].name, "mp-0: Instance * *=Launching never happens after BootstrapConfig * *=2");
}

TEST(NeverAfter, FailsWhenTheRowComesAfter) {
  auto r = Check({Rotation(2, "2"), Launch(kSecond * 5)});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].passed);
  EXPECT_NE(r[0].message.find("this after it at"), std::string::npos) << r[0].message;
}

TEST(NeverAfter, FailsWhenTheOtherNeverHappens) {
  auto r = Check({Launch(1)});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].passed);
  EXPECT_EQ(r[0].message, "the other never happened");
}

}  // namespace
}  // namespace mpsim
