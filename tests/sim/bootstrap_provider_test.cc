// The CABPK stand-in: the data secret is ready after the delay, and the join
// token rotates every interval only once the pool has nodes, rewriting the
// data secret's value under the same name (docs/reference/providers.md §0.1).
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
  Secret DataSecret() {
    Secret s;
    EXPECT_TRUE(server_.Store<Secret>().Get({"default", "mp-0"}, &s).ok());
    return s;
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

// storeBootstrapData (kubeadmconfig_controller.go:1407-1460): the secret is
// named after the config, controlled by it, of type cluster.x-k8s.io/secret,
// with `value` and `format`; a rotation updates it in place, and the value is
// all that changes.
TEST_F(BootstrapProviderTest, ARotationRewritesTheDataSecretsValueUnderItsName) {
  Start(15 * kMinute);
  RunTo(3 * kSecond);
  const Secret ready = DataSecret();
  EXPECT_EQ(ready.type, "cluster.x-k8s.io/secret");
  EXPECT_EQ(ready.data.at("format"), "cloud-config");
  EXPECT_NE(ready.data.at("value").find("token: " + Config().spec.join_token), std::string::npos)
      << ready.data.at("value");
  const OwnerReference* owner = ControllerOwner(ready.meta, "KubeadmConfig");
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(owner->name, "mp-0");
  GiveThePoolANode();
  RunTo(16 * kMinute);
  const Secret rotated = DataSecret();
  EXPECT_EQ(rotated.meta.uid, ready.meta.uid) << "updated, not recreated";
  EXPECT_NE(rotated.data.at("value"), ready.data.at("value"));
  EXPECT_NE(rotated.data.at("value").find("token: " + Config().spec.join_token), std::string::npos);
  Secret same_but_value = rotated;
  same_but_value.data["value"] = ready.data.at("value");
  same_but_value.meta.resource_version = ready.meta.resource_version;
  EXPECT_EQ(same_but_value, ready);
  EXPECT_EQ(server_.Store<Secret>().size(), 1u);
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
