// The fixture of the AWSManagedMachinePool controller's tests: a simulated
// EKS node group and workload cluster, a fake API client, and a helper that
// runs a pass through its waiter holds as the work queue would.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/eks/awsmanagedmachinepool_reconciler.h"
#include "tests/testing/provider_controller_test.h"

namespace mpsim::eks {

inline const ObjectKey kEksKey{"default", "mp-0"};

// Constant delays, so expected times can be read off the options.
inline EksOptions EksTestOptions() {
  EksOptions o;
  o.zones = {"us-east-1a"};
  o.launch_delay = DistSpec::Constant(10 * kSecond);
  o.delete_delay = DistSpec::Constant(30 * kSecond);
  o.create_delay = DistSpec::Constant(60 * kSecond);
  o.settle_delay = DistSpec::Constant(30 * kSecond);
  o.update_setup_delay = DistSpec::Constant(60 * kSecond);
  o.reaction_delay = DistSpec::Constant(4 * kSecond);
  o.launch_retry = DistSpec::Constant(60 * kSecond);
  o.delete_group_delay = DistSpec::Constant(30 * kSecond);
  return o;
}

class EksTest : public ProviderControllerTest {
 protected:
  EksTest() : waiter_rng_(StreamFor(1, "eks/mp-0/waiter")) {}

  void Start(int32_t replicas, EksOptions o = EksTestOptions()) {
    ng_ = std::make_unique<NodeGroup>(&loop_, &workload_, &rec_, "mp-0", std::move(o), 1);
    fake::AddPoolPair(&client_, kAwsManagedMachinePoolKind, replicas);
    std::map<std::string, AwsManagedMachinePoolReconciler::Pool> pools{
        {"mp-0", {ng_.get(), &waiter_rng_}}};
    r_ = std::make_unique<AwsManagedMachinePoolReconciler>(&client_, &loop_, &rec_, pools);
  }
  // One call of the reconciler, as the queue makes it (first or resumed).
  Status Call(Result* res) { return r_->Reconcile({kEksKey}, res); }
  // A whole pass: the first call and every resumption after its hold, with
  // the loop run meanwhile. `holds` gets each hold; returns the pass's answer.
  Status Pass(std::vector<Duration>* holds = nullptr, Result* last = nullptr) {
    Result res;
    Status s = Call(&res);
    while (s.ok() && res.hold_for > 0) {
      if (holds != nullptr) holds->push_back(res.hold_for);
      RunTo(loop_.Now() + res.hold_for);
      res = Result{};
      s = Call(&res);
    }
    if (last != nullptr) *last = res;
    return s;
  }
  const InfraMachinePool& Imp() { return client_.infra_machine_pools().At(kEksKey); }
  std::vector<std::string> ProviderIds() {
    std::vector<std::string> out;
    if (Imp().spec.provider_id_list) {
      for (const SharedString& id : *Imp().spec.provider_id_list) out.push_back(id.str());
    }
    return out;
  }
  void SetMachinePool(const std::function<void(MachinePool*)>& f) {
    MachinePool mp = client_.machine_pools().At(kEksKey);
    f(&mp);
    client_.machine_pools().Add(mp);
  }
  // "field=to" of the Nodegroup rows, in order.
  std::vector<std::string> NodegroupRows(const std::string& field) {
    std::vector<std::string> out;
    for (const TimelineRow& r : rec_.rows()) {
      if (r.object_kind == "Nodegroup" && r.field == field) out.push_back(r.to);
    }
    return out;
  }

  Rng waiter_rng_;
  std::unique_ptr<NodeGroup> ng_;
  std::unique_ptr<AwsManagedMachinePoolReconciler> r_;
};

}  // namespace mpsim::eks
