// The fixtures of CAPOCI's two pool controllers' tests: a real simulated
// instance pool (OKE node pool), a workload cluster and a fake API client
// holding the MachinePool fixture of the upstream tests (replicas 3,
// ocimanaged_machinepool_controller_test.go:788-801), and helpers that read
// the pool's conditions.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "models/oci/node_pool.h"
#include "models/oci/ocimachinepool_reconciler.h"
#include "models/oci/ocimanagedmachinepool_reconciler.h"
#include "tests/testing/provider_controller_test.h"

namespace mpsim::oci {

inline const ObjectKey kOciKey{"default", "mp-0"};

// Constant delays, so that the tests know when each instance runs.
inline FleetOptions OciTestFleet(std::string prefix) {
  FleetOptions o;
  o.zones = {"AD-1"};
  o.launch_delay = DistSpec::Constant(60 * kSecond);
  o.delete_delay = DistSpec::Constant(30 * kSecond);
  o.region = "iad";
  o.provider_id_prefix = std::move(prefix);
  return o;
}

class OciPoolTestBase : public ProviderControllerTest {
 protected:
  const InfraMachinePool& Imp() { return client_.infra_machine_pools().At(kOciKey); }
  const MachinePool& Mp() { return client_.machine_pools().At(kOciKey); }
  void SetMachinePool(const std::function<void(MachinePool*)>& f) {
    MachinePool mp = Mp();
    f(&mp);
    client_.machine_pools().Add(mp);
  }
  // The condition `type` of the pool as "status/reason/severity", or "" if unset.
  std::string ConditionOf(const char* type) {
    for (const Condition& c : Imp().status.conditions) {
      if (c.type == type) return c.status + "/" + c.reason + "/" + c.severity;
    }
    return "";
  }
  void MarkDeleted() {
    InfraMachinePool imp = Imp();
    imp.meta.deletion_timestamp = loop_.Now();
    client_.infra_machine_pools().Add(imp);
  }
};

class OciTest : public OciPoolTestBase {
 protected:
  // A pool pair whose bootstrap data secret `data` exists unless empty.
  void Start(int32_t replicas, std::string data_secret = "mp-0-boot",
             FleetOptions o = OciTestFleet("oci://")) {
    pool_ = std::make_unique<InstancePool>(&loop_, &workload_, &rec_, "mp-0", std::move(o), 1);
    fake::AddPoolPair(&client_, kOciMachinePoolKind, replicas,
                      data_secret.empty() ? std::nullopt : std::optional(data_secret));
    r_ = std::make_unique<OciMachinePoolReconciler>(
        &client_, &loop_, &rec_, std::map<std::string, InstancePool*>{{"mp-0", pool_.get()}});
  }
  Status PassStatus(Duration* requeue) {
    Result res;
    Status s = r_->Reconcile({kOciKey}, &res);
    *requeue = res.requeue_after;
    return s;
  }
  Duration Pass() {
    Duration d = 0;
    EXPECT_TRUE(PassStatus(&d).ok());
    return d;
  }
  // Creates the pool and runs until it is RUNNING and listed.
  void StartRunning(int32_t replicas) {
    Start(replicas);
    Pass();
    RunTo(loop_.Now() + 2 * kMinute);
    ASSERT_EQ(pool_->state(), InstancePoolState::kRunning);
    Pass();
  }

  std::unique_ptr<InstancePool> pool_;
  std::unique_ptr<OciMachinePoolReconciler> r_;
};

class OkeTest : public OciPoolTestBase {
 protected:
  static NodeCycling Cycling() {
    NodeCycling c;
    c.drain_delay = DistSpec::Constant(10 * kSecond);
    return c;
  }
  void Start(int32_t replicas, NodeCycling c = Cycling()) {
    pool_ = std::make_unique<NodePool>(&loop_, &workload_, &rec_, "mp-0", OciTestFleet(""),
                                       std::move(c), 1);
    fake::AddPoolPair(&client_, kOciManagedMachinePoolKind, replicas);
    r_ = std::make_unique<OciManagedMachinePoolReconciler>(
        &client_, &loop_, &rec_, std::map<std::string, NodePool*>{{"mp-0", pool_.get()}});
  }
  Status PassStatus(Duration* requeue) {
    Result res;
    Status s = r_->Reconcile({kOciKey}, &res);
    *requeue = res.requeue_after;
    return s;
  }
  Duration Pass() {
    Duration d = 0;
    EXPECT_TRUE(PassStatus(&d).ok());
    return d;
  }
  void StartActive(int32_t replicas, NodeCycling c = Cycling()) {
    Start(replicas, std::move(c));
    Pass();
    RunTo(loop_.Now() + 2 * kMinute);
    ASSERT_EQ(pool_->state(), NodePoolState::kActive);
    Pass();
  }

  std::unique_ptr<NodePool> pool_;
  std::unique_ptr<OciManagedMachinePoolReconciler> r_;
};

}  // namespace mpsim::oci
