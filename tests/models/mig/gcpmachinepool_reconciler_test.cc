// CAPG's GCPMachinePool controller against a real simulated MIG and a fake API
// client (docs/reference/providers.md §3.6.1): the 1-minute requeue after every successful
// reconcile, {} while the bootstrap data is missing, a new instance template
// per bootstrap-data or version change, providerIDList from the group's
// members, and the errors of a malformed URL and of a pool in two zones.
#include "models/mig/gcpmachinepool_reconciler.h"

#include <gtest/gtest.h>

#include <memory>

#include "sim/api_server.h"
#include "tests/models/mig/mig_test_options.h"
#include "tests/testing/fake_client.h"

namespace mpsim::mig {
namespace {

const ObjectKey kPool{"default", "mp-0"};

class GcpMachinePoolTest : public ::testing::Test {
 protected:
  GcpMachinePoolTest()
      : server_(&loop_),
        workload_(&loop_, &server_, &rec_, WorkloadOptions{}, 1),
        client_(&loop_),
        quota_(1500) {}

  static MigOptions Options() { return ConstantDelayMigOptions(); }
  void Start(int32_t replicas, std::optional<std::string> secret = "mp-0-bootstrap",
             MigOptions o = Options()) {
    g_ = std::make_unique<ManagedInstanceGroup>(&loop_, &workload_, &rec_, "mp-0", o, 1);
    fake::AddPoolPair(&client_, kGcpMachinePoolKind, replicas, std::move(secret));
    std::map<std::string, GcpMachinePoolReconciler::Pool> pools{{"mp-0", {g_.get(), o.zones, "p"}}};
    r_ = std::make_unique<GcpMachinePoolReconciler>(&client_, &loop_, &rec_, &quota_, pools);
  }
  Status Pass(Duration* requeue) {
    Result res;
    Status s = r_->Reconcile({kPool}, &res);
    *requeue = res.requeue_after;
    return s;
  }
  void RunTo(Time t) {
    loop_.At(t, [] {});
    loop_.Run(t, 10'000'000);
  }
  void SetMachinePool(const std::function<void(MachinePool*)>& f) {
    MachinePool mp = client_.machine_pools().At(kPool);
    f(&mp);
    client_.machine_pools().Add(mp);
  }
  uint64_t Calls(const std::string& api) {
    const auto& m = rec_.provider_api_calls_by_api("mp-0");
    auto it = m.find(api);
    return it == m.end() ? 0 : it->second;
  }
  const InfraMachinePool& Imp() { return client_.infra_machine_pools().At(kPool); }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
  fake::FakeClient client_;
  ApiQuota quota_;
  std::unique_ptr<ManagedInstanceGroup> g_;
  std::unique_ptr<GcpMachinePoolReconciler> r_;
};

// Whatever happened (the group created, resized, or nothing to do), CAPG asks
// to come back in a minute.
TEST_F(GcpMachinePoolTest, EverySuccessfulReconcileRequeuesAfterOneMinute) {
  Start(3);
  Duration d = 0;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(Pass(&d).ok());
    EXPECT_EQ(d, kMinute) << "pass " << i;
    RunTo(loop_.Now() + d);
  }
  EXPECT_EQ(Calls("compute:instanceGroupManagers.insert"), 1u);
  EXPECT_EQ(Imp().spec.provider_id_list.value_or(ProviderIDList{}).size(), 3u);
}

TEST_F(GcpMachinePoolTest, WaitingForBootstrapDataCreatesNothingAndDoesNotRequeue) {
  Start(3, std::nullopt);
  Duration d = kHour;
  ASSERT_TRUE(Pass(&d).ok());
  EXPECT_EQ(d, 0);
  EXPECT_FALSE(g_->exists());
  EXPECT_EQ(Calls("compute:instanceTemplates.insert"), 0u);
}

// Each change of the bootstrap data (a token rotation) or of the version is a
// new template and a setInstanceTemplate; an unchanged spec is neither.
TEST_F(GcpMachinePoolTest, ANewTemplatePerBootstrapDataOrVersionChange) {
  Start(2);
  Duration d = 0;
  ASSERT_TRUE(Pass(&d).ok());
  ASSERT_TRUE(Pass(&d).ok());
  EXPECT_EQ(Calls("compute:instanceTemplates.insert"), 1u);
  SetMachinePool([](MachinePool* mp) {
    mp->spec.template_.spec.bootstrap.data_secret_name = "mp-0-bootstrap-2";
  });
  ASSERT_TRUE(Pass(&d).ok());
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  ASSERT_TRUE(Pass(&d).ok());
  EXPECT_EQ(Calls("compute:instanceTemplates.insert"), 3u);
  EXPECT_EQ(Calls("compute:instanceGroupManagers.setInstanceTemplate"), 2u);
  EXPECT_EQ(g_->template_version(), 3);
}

// A stocked-out VM is a managed instance but not a member: it is not listed.
TEST_F(GcpMachinePoolTest, ProviderIdListHasOnlyMembersWhoseVmExists) {
  MigOptions o = Options();
  o.capacity = {{"z", 2}};
  Start(3, "mp-0-bootstrap", o);
  Duration d = 0;
  ASSERT_TRUE(Pass(&d).ok());
  RunTo(5 * kMinute);
  ASSERT_TRUE(Pass(&d).ok());
  const ProviderIDList ids = Imp().spec.provider_id_list.value_or(ProviderIDList{});
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[0].str().rfind("gce://mpsim-project/z/mp-0-", 0), 0u)
      << ids[0] << ": from the VM's self link";
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true)) << "ready once the group exists";
}

TEST_F(GcpMachinePoolTest, AMalformedInstanceUrlFailsTheReconcile) {
  MigOptions o = Options();
  o.malformed_url_probability = 1;
  Start(1, "mp-0-bootstrap", o);
  Duration d = 0;
  ASSERT_TRUE(Pass(&d).ok()) << "no VM yet";
  RunTo(2 * kMinute);
  EXPECT_FALSE(Pass(&d).ok());
  EXPECT_EQ(d, 0) << "an error: the workqueue's backoff, not the minute";
}

TEST_F(GcpMachinePoolTest, TwoZonesAreAnError) {
  MigOptions o = Options();
  o.zones = {"a", "b"};
  Start(2, "mp-0-bootstrap", o);
  Duration d = 0;
  EXPECT_FALSE(Pass(&d).ok());
  EXPECT_FALSE(g_->exists());
}

}  // namespace
}  // namespace mpsim::mig
