#include "models/mig/gke_config_text.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

TEST(GkeConfigText, ResourceLabelsRoundTripInKeyOrder) {
  ResourceLabels l;
  std::string err;
  ASSERT_TRUE(ParseResourceLabelsText("team=a,cost-center=x_1,empty=", &l, &err)) << err;
  EXPECT_EQ(l, (ResourceLabels{{"team", "a"}, {"cost-center", "x_1"}, {"empty", ""}}));
  EXPECT_EQ(MapText(l), "cost-center=x_1,empty=,team=a");
  ASSERT_TRUE(ParseResourceLabelsText("", &l, &err));
  EXPECT_TRUE(l.empty());
}

TEST(GkeConfigText, BadResourceLabelsSayWhy) {
  ResourceLabels l;
  std::string err;
  EXPECT_FALSE(ParseResourceLabelsText("team", &l, &err));
  EXPECT_EQ(err, "resource label \"team\" is not key=value");
  EXPECT_FALSE(ParseResourceLabelsText("Team=a", &l, &err)) << "GCE keys are lower case";
  EXPECT_EQ(err, "bad resource label key \"Team\"");
  EXPECT_FALSE(ParseResourceLabelsText("1x=a", &l, &err)) << "keys start with a letter";
  EXPECT_FALSE(ParseResourceLabelsText("x=a.b", &l, &err)) << "no dots, unlike Kubernetes labels";
  EXPECT_EQ(err, "bad resource label value \"a.b\"");
  EXPECT_FALSE(ParseResourceLabelsText("x=1,x=2", &l, &err));
  EXPECT_FALSE(ParseResourceLabelsText("x=1,", &l, &err)) << "an empty item";
  EXPECT_FALSE(ParseResourceLabelsText(std::string(64, 'k') + "=v", &l, &err));
}

TEST(GkeConfigText, NetworkTagsKeepTheirOrder) {
  std::vector<std::string> t;
  std::string err;
  ASSERT_TRUE(ParseNetworkTagsText("web,allow-ssh,b2", &t, &err)) << err;
  EXPECT_EQ(t, (std::vector<std::string>{"web", "allow-ssh", "b2"}));
  EXPECT_EQ(ListText(t), "web,allow-ssh,b2");
  ASSERT_TRUE(ParseNetworkTagsText("", &t, &err));
  EXPECT_TRUE(t.empty());
}

TEST(GkeConfigText, BadNetworkTagsSayWhy) {
  std::vector<std::string> t;
  std::string err;
  EXPECT_FALSE(ParseNetworkTagsText("web,Web", &t, &err));
  EXPECT_EQ(err, "bad network tag \"Web\"");
  EXPECT_FALSE(ParseNetworkTagsText("web,web", &t, &err));
  EXPECT_EQ(err, "network tag \"web\" given twice");
  EXPECT_FALSE(ParseNetworkTagsText("1web", &t, &err));
  EXPECT_FALSE(ParseNetworkTagsText("web-", &t, &err));
  EXPECT_FALSE(ParseNetworkTagsText("a_b", &t, &err));
  EXPECT_FALSE(ParseNetworkTagsText("a,,b", &t, &err));
}

TEST(GkeConfigText, SysctlsTakeSpacesInValues) {
  Sysctls s;
  std::string err;
  ASSERT_TRUE(
      ParseSysctlsText("net.core.somaxconn=1024,net.ipv4.tcp_rmem=4096 87380 6291456", &s, &err))
      << err;
  EXPECT_EQ(s.at("net.ipv4.tcp_rmem"), "4096 87380 6291456");
  EXPECT_EQ(MapText(s), "net.core.somaxconn=1024,net.ipv4.tcp_rmem=4096 87380 6291456");
  EXPECT_FALSE(ParseSysctlsText("net.core.somaxconn", &s, &err));
  EXPECT_EQ(err, "sysctl \"net.core.somaxconn\" is not key=value");
  EXPECT_FALSE(ParseSysctlsText("net.core.somaxconn=", &s, &err));
  EXPECT_EQ(err, "bad sysctl value \"\"");
  EXPECT_FALSE(ParseSysctlsText("Net.core=1", &s, &err));
  EXPECT_FALSE(ParseSysctlsText("net.core.=1", &s, &err));
}

TEST(GkeConfigText, NodeLocationsKeepTheirOrder) {
  std::vector<std::string> z;
  std::string err;
  ASSERT_TRUE(ParseNodeLocationsText("us-central1-b,us-central1-a", &z, &err)) << err;
  EXPECT_EQ(z, (std::vector<std::string>{"us-central1-b", "us-central1-a"}));
  EXPECT_EQ(ListText(z), "us-central1-b,us-central1-a");
}

TEST(GkeConfigText, BadNodeLocationsSayWhy) {
  std::vector<std::string> z;
  std::string err;
  EXPECT_FALSE(ParseNodeLocationsText("", &z, &err));
  EXPECT_EQ(err, "list at least one zone");
  EXPECT_FALSE(ParseNodeLocationsText("us-central1-a,us-central1-a", &z, &err));
  EXPECT_EQ(err, "zone \"us-central1-a\" given twice");
  EXPECT_FALSE(ParseNodeLocationsText("US-central1-a", &z, &err));
  EXPECT_EQ(err, "bad zone name \"US-central1-a\"");
  EXPECT_FALSE(ParseNodeLocationsText("us-central1-", &z, &err));
  EXPECT_FALSE(ParseNodeLocationsText("1-a", &z, &err));
  EXPECT_FALSE(ParseNodeLocationsText("a,,b", &z, &err));
  EXPECT_FALSE(ParseNodeLocationsText(std::string(64, 'a'), &z, &err));
}

TEST(GkeConfigText, CgroupModes) {
  EXPECT_TRUE(IsCgroupMode(""));
  EXPECT_TRUE(IsCgroupMode("CGROUP_MODE_V1"));
  EXPECT_TRUE(IsCgroupMode("CGROUP_MODE_V2"));
  EXPECT_FALSE(IsCgroupMode("v2"));
  EXPECT_FALSE(IsCgroupMode("CGROUP_MODE_UNSPECIFIED")) << "unspecified is the empty string";
}

}  // namespace
}  // namespace mpsim
