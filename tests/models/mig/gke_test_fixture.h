// The fixture of the GCPManagedMachinePool controller's tests: a real
// simulated GKE node pool and workload cluster, a fake API client, and the
// helpers that drive CAPG's requeues and read the timeline.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "models/mig/gcpmanagedmachinepool_reconciler.h"
#include "sim/api_server.h"
#include "tests/models/mig/mig_test_options.h"
#include "tests/testing/provider_controller_test.h"

namespace mpsim::mig {

inline const ObjectKey kKey{"default", "mp-0"};

class GkeTest : public ProviderControllerTest {
 protected:
  GkeTest() : quota_(1500) {}

  static MigOptions Options() {
    MigOptions o = ConstantDelayMigOptions();
    o.node_pool_operation_delay = DistSpec::Constant(40 * kSecond);
    o.gke = true;
    return o;
  }
  void Start(int32_t replicas, MigOptions o = Options()) {
    np_ = std::make_unique<NodePool>(&loop_, &workload_, &rec_, "mp-0", o, 1);
    fake::AddPoolPair(&client_, kGcpManagedMachinePoolKind, replicas);
    std::map<std::string, GcpManagedMachinePoolReconciler::Pool> pools{
        {"mp-0", {np_.get(), "p", BlockConfig(o), o.autoscaling}}};
    r_ = std::make_unique<GcpManagedMachinePoolReconciler>(&client_, &loop_, &rec_, &quota_, pools);
  }
  Duration Pass() {
    Result res;
    EXPECT_TRUE(r_->Reconcile({kKey}, &res).ok());
    return res.requeue_after;
  }
  // Runs the loop to `t`, then stands at `t` even if the queue ran dry earlier.
  // Reconciles whenever CAPG asks to, until it stops asking; returns the times.
  std::vector<Time> FollowRequeues() {
    std::vector<Time> at;
    for (Duration d = Pass(); d > 0 && at.size() < 100; d = Pass()) {
      RunTo(loop_.Now() + d);
      at.push_back(loop_.Now());
    }
    return at;
  }
  const InfraMachinePool& Imp() { return client_.infra_machine_pools().At(kKey); }
  // A user's edit of the GCPManagedMachinePool (the setInfraPoolSpec event).
  void SetSpec(const std::map<std::string, std::string>& fields) {
    InfraMachinePool imp = Imp();
    for (const auto& [k, v] : fields) imp.spec.provider_spec[k] = v;
    client_.infra_machine_pools().Add(imp);
  }
  // "field=to" of this pool's timeline rows of `kind`, in order.
  std::vector<std::string> Rows(const std::string& kind) {
    std::vector<std::string> out;
    for (const TimelineRow& r : rec_.rows()) {
      if (r.object_kind == kind) out.push_back(r.field + "=" + r.to);
    }
    return out;
  }
  int32_t Instances() {
    int32_t n = 0;
    for (const auto& g : np_->groups()) {
      for (const ManagedInstance* mi : g->ListManagedInstances())
        n += mi->action != Action::kDeleting;
    }
    return n;
  }
  void SetMachinePool(const std::function<void(MachinePool*)>& f) {
    MachinePool mp = client_.machine_pools().At(kKey);
    f(&mp);
    client_.machine_pools().Add(mp);
  }
  // Starts a 3-node pool and runs until its Nodes are registered and CAPG is idle.
  void StartIdle(MigOptions o = Options()) {
    Start(3, std::move(o));
    FollowRequeues();
    RunTo(5 * kMinute);
    ASSERT_EQ(workload_.nodes(), 3u);
  }
  std::set<std::string> InstanceNames() {
    std::set<std::string> names;
    for (const auto& g : np_->groups()) {
      for (const ManagedInstance* mi : g->ListManagedInstances()) names.insert(mi->name);
    }
    return names;
  }

  ApiQuota quota_;
  std::unique_ptr<NodePool> np_;
  std::unique_ptr<GcpManagedMachinePoolReconciler> r_;
};

}  // namespace mpsim::mig
