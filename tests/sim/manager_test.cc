// The manager's controllers: a resync re-adds only the objects a controller
// is for, so one provider's controller never reconciles another's pools.
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

}  // namespace
}  // namespace mpsim
