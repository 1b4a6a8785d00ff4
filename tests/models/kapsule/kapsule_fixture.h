// The fixture of the Kapsule provider's tests: a real simulated Kapsule pool
// and workload cluster, a fake API client with a MachinePool and its
// ScalewayManagedMachinePool, and helpers that follow CAPS's requeues.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/kapsule/kapsule_pool.h"
#include "models/kapsule/scalewaymanagedmachinepool_reconciler.h"
#include "tests/testing/provider_controller_test.h"

namespace mpsim::kapsule {

inline const ObjectKey kKapsuleKey{"default", "mp-0"};

class KapsuleTest : public ProviderControllerTest {
 protected:
  // Constant delays, so that the tests can name the instants.
  static KapsuleOptions Options() {
    KapsuleOptions o;
    o.launch_delay = DistSpec::Constant(60 * kSecond);
    o.delete_delay = DistSpec::Constant(30 * kSecond);
    o.creation_retry = DistSpec::Constant(60 * kSecond);
    return o;
  }
  void Start(int32_t replicas, KapsuleOptions o = Options()) {
    pool_ = std::make_unique<KapsulePool>(&loop_, &workload_, &rec_, "mp-0", o, 1);
    fake::AddPoolPair(&client_, kScalewayManagedMachinePoolKind, replicas);
    std::map<std::string, ScalewayManagedMachinePoolReconciler::Pool> pools{
        {"mp-0", {pool_.get(), o.upgrade_policy}}};
    r_ = std::make_unique<ScalewayManagedMachinePoolReconciler>(&client_, &loop_, &rec_, pools);
  }
  // One reconcile, which must not fail; its RequeueAfter.
  Duration Pass() {
    Result res;
    const Status s = r_->Reconcile({kKapsuleKey}, &res);
    EXPECT_TRUE(s.ok()) << s.message();
    return res.requeue_after;
  }
  // Reconciles whenever CAPS asks to, until it stops asking; the times.
  std::vector<Time> FollowRequeues() {
    std::vector<Time> at;
    for (Duration d = Pass(); d > 0 && at.size() < 200; d = Pass()) {
      RunTo(loop_.Now() + d);
      at.push_back(loop_.Now());
    }
    return at;
  }
  // Starts a pool of `replicas` and follows CAPS until it is idle.
  void StartIdle(int32_t replicas, KapsuleOptions o = Options()) {
    Start(replicas, std::move(o));
    FollowRequeues();
    ASSERT_EQ(pool_->status(), PoolStatus::kReady);
  }
  const InfraMachinePool& Imp() { return client_.infra_machine_pools().At(kKapsuleKey); }
  void SetMachinePool(const std::function<void(MachinePool*)>& f) {
    MachinePool mp = client_.machine_pools().At(kKapsuleKey);
    f(&mp);
    client_.machine_pools().Add(mp);
  }
  std::vector<std::string> ListText() {
    std::vector<std::string> out;
    if (const auto& ids = Imp().spec.provider_id_list) {
      for (const SharedString& id : *ids) out.push_back(id.str());
    }
    return out;
  }
  // Live nodes (not being deleted) of the pool.
  int32_t Live() {
    int32_t n = 0;
    for (const KapsuleNode* node : pool_->ListNodes()) n += node->status != NodeStatus::kDeleting;
    return n;
  }

  std::unique_ptr<KapsulePool> pool_;
  std::unique_ptr<ScalewayManagedMachinePoolReconciler> r_;
};

}  // namespace mpsim::kapsule
