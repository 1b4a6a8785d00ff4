// The CABPK stand-in: the data secret is ready after the delay, and the join
// token rotates every interval only once the pool has nodes, keeping the
// data secret's name (docs/reference/providers.md §0.1).
#include "sim/bootstrap_provider.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

class BootstrapProviderTest : public ::testing::Test {
 protected:
  BootstrapProviderTest() : server_(&loop_) {}

  void Start(Duration rotation) {
    provider_ = std::make_unique<BootstrapProvider>(
        &loop_, &server_, &rec_, BootstrapOptions{DistSpec::Constant(2 * kSecond), rotation, 1});
    MachinePool mp;
    mp.meta = {.name = "mp-0", .ns = "default"};
    server_.Store<MachinePool>().Create(&mp);
    BootstrapConfig cfg;
    cfg.meta = {.name = "mp-0", .ns = "default"};
    cfg.meta.owner_references = {{.api_version = "cluster.x-k8s.io/v1beta2",
                                  .kind = "MachinePool",
                                  .name = "mp-0",
                                  .controller = true}};
    server_.Store<BootstrapConfig>().Create(&cfg);
  }
  void GiveThePoolANode() {
    MachinePool mp;
    ASSERT_TRUE(server_.Store<MachinePool>().Get({"default", "mp-0"}, &mp).ok());
    mp.status.node_refs.push_back({.name = "node-0"});
    server_.Store<MachinePool>().Patch(&mp);
  }
  BootstrapConfig Config() {
    BootstrapConfig cfg;
    EXPECT_TRUE(server_.Store<BootstrapConfig>().Get({"default", "mp-0"}, &cfg).ok());
    return cfg;
  }
  int Rotations() const {
    int n = 0;
    for (const TimelineRow& r : rec_.rows()) n += r.field == "tokenRotations" && r.pool == "mp-0";
    return n;
  }
  void RunTo(Time t) { loop_.Run(t, 1'000'000); }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  std::unique_ptr<BootstrapProvider> provider_;
};

TEST_F(BootstrapProviderTest, TheTokenRotatesEveryIntervalOnceThePoolHasNodes) {
  Start(15 * kMinute);
  RunTo(3 * kSecond);
  const BootstrapConfig ready = Config();
  ASSERT_EQ(ready.status.data_secret_name, "mp-0");
  RunTo(16 * kMinute);  // no nodes yet: the token is only extended
  EXPECT_EQ(Config().spec.join_token, ready.spec.join_token);
  EXPECT_EQ(Rotations(), 0);
  GiveThePoolANode();
  RunTo(31 * kMinute);
  EXPECT_NE(Config().spec.join_token, ready.spec.join_token);
  EXPECT_EQ(Config().status.data_secret_name, "mp-0");  // same secret, new content
  EXPECT_EQ(Rotations(), 1);
  RunTo(61 * kMinute);
  EXPECT_EQ(Rotations(), 3);
  EXPECT_EQ(rec_.rows().back().to, "3");
}

TEST_F(BootstrapProviderTest, ZeroNeverRotates) {
  Start(0);
  RunTo(3 * kSecond);
  GiveThePoolANode();
  const std::string token = Config().spec.join_token;
  RunTo(2 * kHour);
  EXPECT_EQ(Config().spec.join_token, token);
  EXPECT_EQ(Rotations(), 0);
}

}  // namespace
}  // namespace mpsim
