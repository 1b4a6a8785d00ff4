// The fixture of the `aks` controllers' tests: a real simulated AKS agent
// pool, its scale set and ASO resource, a workload cluster, a fake API
// client, and helpers that drive CAPZ's requeues and read the timeline.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/aks/agent_pool.h"
#include "models/aks/aso_agent_pool.h"
#include "models/aks/azureasomanagedmachinepool_reconciler.h"
#include "models/aks/azuremanagedmachinepool_reconciler.h"
#include "models/aks/scale_set.h"
#include "tests/testing/provider_controller_test.h"

namespace mpsim::aks {

inline const ObjectKey kAksKey{"default", "mp-0"};

// Constant delays, one zone, so that each test reads its timeline off exactly.
inline AksOptions ConstantAksOptions() {
  AksOptions o;
  o.agent_pool_name = "pool0";
  o.node_resource_group = "MC_myResourceGroupName_aks_eastus";
  o.zones = {"1"};
  o.launch_delay = DistSpec::Constant(60 * kSecond);
  o.delete_delay = DistSpec::Constant(30 * kSecond);
  o.operation_delay = DistSpec::Constant(10 * kSecond);
  o.aso_reconcile_delay = DistSpec::Constant(2 * kSecond);
  o.allocation_failure_delay = DistSpec::Constant(20 * kSecond);
  return o;
}

class AksTest : public ProviderControllerTest {
 protected:
  AksTest() : arm_{ArmBucket(250, 25), ArmBucket(200, 10)} {}

  // The agent pool, its scale set and ASO resource, with no controller.
  void MakeModel(AksOptions o = ConstantAksOptions()) {
    opts_ = std::move(o);
    vmss_ = std::make_unique<ScaleSet>(&loop_, &workload_, &rec_, "mp-0", opts_, 1);
    aks_ = std::make_unique<AgentPool>(&loop_, &rec_, "mp-0", vmss_.get(), opts_, 1);
    aso_ = std::make_unique<AsoAgentPool>(&loop_, &rec_, "mp-0", aks_.get(), opts_, 1);
  }
  void StartAmmp(int32_t replicas, AksOptions o = ConstantAksOptions()) {
    MakeModel(std::move(o));
    fake::AddPoolPair(&client_, kAzureManagedMachinePoolKind, replicas);
    std::map<std::string, AzureManagedMachinePoolReconciler::Pool> pools{
        {"mp-0", {vmss_.get(), aso_.get(), &opts_}}};
    ammp_ =
        std::make_unique<AzureManagedMachinePoolReconciler>(&client_, &loop_, &rec_, &arm_, pools);
  }
  void StartAso(int32_t replicas, AksOptions o = ConstantAksOptions()) {
    o.kind = kAzureAsoManagedMachinePoolKind;
    MakeModel(std::move(o));
    fake::AddPoolPair(&client_, kAzureAsoManagedMachinePoolKind, replicas);
    std::map<std::string, AzureAsoManagedMachinePoolReconciler::Pool> pools{
        {"mp-0", {aso_.get(), &opts_}}};
    asomp_ = std::make_unique<AzureAsoManagedMachinePoolReconciler>(&client_, &loop_, &rec_, pools);
  }
  Result Pass(Status* status = nullptr) {
    Result res;
    Reconciler* r = ammp_ ? static_cast<Reconciler*>(ammp_.get()) : asomp_.get();
    Status s = r->Reconcile({kAksKey}, &res);
    if (status != nullptr) {
      *status = s;
    } else {
      EXPECT_TRUE(s.ok()) << s.message();
    }
    return res;
  }
  // Reconciles whenever CAPZ asks to (RequeueAfter), until it stops asking
  // or `until`; returns the times of the passes after the first.
  std::vector<Time> FollowRequeues(Time until = 6 * kHour) {
    std::vector<Time> at;
    for (Duration d = Pass().requeue_after; d > 0 && loop_.Now() + d <= until && at.size() < 500;
         d = Pass().requeue_after) {
      RunTo(loop_.Now() + d);
      at.push_back(loop_.Now());
    }
    return at;
  }
  const InfraMachinePool& Imp() { return client_.infra_machine_pools().At(kAksKey); }
  const MachinePool& Mp() { return client_.machine_pools().At(kAksKey); }
  void SetMachinePool(const std::function<void(MachinePool*)>& f) {
    MachinePool mp = Mp();
    f(&mp);
    client_.machine_pools().Add(mp);
  }
  // "field=to" of the timeline rows of `kind`, in order.
  std::vector<std::string> Rows(const std::string& kind) {
    std::vector<std::string> out;
    for (const TimelineRow& r : rec_.rows()) {
      if (r.object_kind == kind) out.push_back(r.field + "=" + r.to);
    }
    return out;
  }
  int32_t VmsOn(const std::string& version) {
    int32_t n = 0;
    for (const auto& [id, vm] : vmss_->vms()) n += vm.version == version;
    return n;
  }

  AksOptions opts_;
  ArmBuckets arm_;
  std::unique_ptr<ScaleSet> vmss_;
  std::unique_ptr<AgentPool> aks_;
  std::unique_ptr<AsoAgentPool> aso_;
  std::unique_ptr<AzureManagedMachinePoolReconciler> ammp_;
  std::unique_ptr<AzureAsoManagedMachinePoolReconciler> asomp_;
};

}  // namespace mpsim::aks
