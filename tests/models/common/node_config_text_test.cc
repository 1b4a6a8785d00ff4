#include "models/common/node_config_text.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

TEST(NodeConfigText, LabelsRoundTripInKeyOrder) {
  Labels l;
  std::string err;
  ASSERT_TRUE(ParseLabelsText("team=a,example.com/tier=gpu,empty=", &l, &err)) << err;
  EXPECT_EQ(l, (Labels{{"team", "a"}, {"example.com/tier", "gpu"}, {"empty", ""}}));
  EXPECT_EQ(LabelsText(l), "empty=,example.com/tier=gpu,team=a");
  ASSERT_TRUE(ParseLabelsText("", &l, &err));
  EXPECT_TRUE(l.empty());
}

TEST(NodeConfigText, BadLabelsSayWhy) {
  Labels l;
  std::string err;
  EXPECT_FALSE(ParseLabelsText("team", &l, &err));
  EXPECT_EQ(err, "label \"team\" is not key=value");
  EXPECT_FALSE(ParseLabelsText("-x=1", &l, &err));
  EXPECT_FALSE(ParseLabelsText("x=a b", &l, &err));
  EXPECT_FALSE(ParseLabelsText("x=1,x=2", &l, &err));
  EXPECT_FALSE(ParseLabelsText("Example.com/x=1", &l, &err)) << "prefixes are lower case";
  EXPECT_FALSE(ParseLabelsText("x=1,", &l, &err)) << "an empty item";
}

TEST(NodeConfigText, TaintsKeepTheirOrderAndValueIsOptional) {
  std::vector<Taint> t;
  std::string err;
  ASSERT_TRUE(ParseTaintsText("gpu=true:NoSchedule,spot:NoExecute", &t, &err)) << err;
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0], (Taint{"gpu", "true", "NoSchedule"}));
  EXPECT_EQ(t[1], (Taint{"spot", "", "NoExecute"}));
  EXPECT_EQ(TaintsText(t), "gpu=true:NoSchedule,spot:NoExecute");
}

TEST(NodeConfigText, BadTaintsSayWhy) {
  std::vector<Taint> t;
  std::string err;
  EXPECT_FALSE(ParseTaintsText("gpu=true", &t, &err));
  EXPECT_FALSE(ParseTaintsText("gpu=true:NO_SCHEDULE", &t, &err));
  EXPECT_EQ(err, "taint effect \"NO_SCHEDULE\" is not NoSchedule, PreferNoSchedule or NoExecute");
  EXPECT_FALSE(ParseTaintsText("=x:NoSchedule", &t, &err));
}

}  // namespace
}  // namespace mpsim
