// The manager's controllers: a resync re-adds only the objects a controller
// is for, so one provider's controller never reconciles another's pools; and
// Secrets come from the manager's cache only if it caches them, else from the
// API server (controller-runtime's Client.Cache.DisableFor).
#include "sim/manager.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sim/api_server.h"

namespace mpsim {
namespace {

// Records every key it is asked to reconcile; declares no watches, so only
// the resync enqueues.
class RecordingReconciler : public Reconciler {
 public:
  explicit RecordingReconciler(std::vector<ObjectKey>* seen) : seen_(seen) {}
  void Setup(Builder*) override {}
  Status Reconcile(const Request& req, Result*) override {
    seen_->push_back(req.key);
    return Status::Ok();
  }

 private:
  std::vector<ObjectKey>* seen_;
};

void AddInfraPool(ApiServer* server, const std::string& name, const std::string& kind) {
  InfraMachinePool p;
  p.meta = {.name = name, .ns = "default"};
  p.kind = kind;
  ASSERT_TRUE(server->Store<InfraMachinePool>().Create(&p).ok());
}

TEST(Manager, ResyncReaddsOnlyTheKindAControllerIsFor) {
  EventLoop loop;
  ApiServer server(&loop);
  Manager m(&loop, &server, {.name = "t"});
  AddInfraPool(&server, "aws-pool", "AWSMachinePool");
  AddInfraPool(&server, "gcp-pool", "GCPMachinePool");
  std::vector<ObjectKey> aws_seen, any_seen;
  WorkQueueOptions q;
  q.sync_period = kMinute;
  m.AddController<InfraMachinePool>(
      "aws", q, [&](Client*) { return std::make_unique<RecordingReconciler>(&aws_seen); },
      [](const InfraMachinePool& p) { return p.kind == "AWSMachinePool"; });
  m.AddController<InfraMachinePool>(
      "any", q, [&](Client*) { return std::make_unique<RecordingReconciler>(&any_seen); });
  m.Start();
  loop.Run(90 * kSecond, 1'000'000);
  EXPECT_EQ(aws_seen, (std::vector<ObjectKey>{{"default", "aws-pool"}}));
  EXPECT_EQ(any_seen.size(), 2u);  // no filter: every InfraMachinePool
}

// A Secret written at 0 s: the caching manager's client sees it after the
// informer's 1 s lag, the other's at once, from the server's store.
TEST(Manager, SecretsAreCachedOnlyWhereTheManagerCachesThem) {
  EventLoop loop;
  ApiServer server(&loop);
  Manager cached(&loop, &server,
                 {.name = "c", .informer_lag = DistSpec::Constant(kSecond), .cache_secrets = true});
  Manager direct(&loop, &server, {.name = "d", .informer_lag = DistSpec::Constant(kSecond)});
  std::vector<ObjectKey> seen;
  auto make = [&](Client*) { return std::make_unique<RecordingReconciler>(&seen); };
  Client& from_cache = cached.AddController<InfraMachinePool>("c", {}, make)->client();
  Client& from_server = direct.AddController<InfraMachinePool>("d", {}, make)->client();
  Secret secret;
  secret.meta = {.name = "mp-0", .ns = "default"};
  secret.data = {{"value", "join"}};
  ASSERT_TRUE(server.Store<Secret>().Create(&secret).ok());
  EXPECT_EQ(from_cache.Secrets().GetShared({"default", "mp-0"}), nullptr);
  ASSERT_NE(from_server.Secrets().GetShared({"default", "mp-0"}), nullptr);
  EXPECT_EQ(from_server.Secrets().List({}).size(), 1u);
  loop.Run(2 * kSecond, 1'000);
  Secret got;
  ASSERT_TRUE(from_cache.Secrets().Get({"default", "mp-0"}, &got).ok());
  EXPECT_EQ(got.data.at("value"), "join");
}

}  // namespace
}  // namespace mpsim
