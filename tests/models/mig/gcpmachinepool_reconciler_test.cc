// CAPG's GCPMachinePool controller against a real simulated MIG and a fake API
// client (docs/reference/providers.md §3.6.1): the 1-minute requeue after every successful
// reconcile, {} while the bootstrap data is missing, a new instance template
// per bootstrap-data (token rotation) or version change and what it does to
// the VMs under each update policy, providerIDList from the group's
// members, and the errors of a malformed URL and of a pool in two zones.
#include "models/mig/gcpmachinepool_reconciler.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

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

// Each change of the bootstrap data (a token rotation, the secret's name
// kept) or of the version is a new template name (a hash of the whole
// template, instancetemplate_reconcile.go:119-134) and a setInstanceTemplate
// (instancegroupmanagers_reconcile.go:142-152); an unchanged spec is neither.
TEST_F(GcpMachinePoolTest, ANewTemplatePerBootstrapDataOrVersionChange) {
  Start(2);
  Duration d = 0;
  ASSERT_TRUE(Pass(&d).ok());
  ASSERT_TRUE(Pass(&d).ok());
  EXPECT_EQ(Calls("compute:instanceTemplates.insert"), 1u);
  const std::string first = g_->instance_template();
  EXPECT_EQ(first.rfind("mp-0-", 0), 0u) << first;
  EXPECT_EQ(first.size(), std::string("mp-0-").size() + 16) << "16 hex digits: " << first;
  fake::RotateJoinToken(&client_, "mp-0-bootstrap");
  ASSERT_TRUE(Pass(&d).ok());
  const std::string rotated = g_->instance_template();
  EXPECT_NE(rotated, first);
  const TimelineRow& row = rec_.rows().back();
  EXPECT_EQ(std::tie(row.object_kind, row.field, row.from, row.to),
            std::make_tuple("InstanceGroupManager", "instanceTemplate", first, rotated));
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  ASSERT_TRUE(Pass(&d).ok());
  EXPECT_NE(g_->instance_template(), rotated);
  EXPECT_EQ(Calls("compute:instanceTemplates.insert"), 3u);
  EXPECT_EQ(Calls("compute:instanceGroupManagers.setInstanceTemplate"), 2u);
  EXPECT_EQ(g_->template_version(), 3);
}

// The name is the pool's name cut to 46 characters, "-" and 16 hex digits
// (cloud/scope/machinepool.go:231-240): 63 characters at most.
TEST_F(GcpMachinePoolTest, ALongPoolNameIsCutToLeaveRoomForTheHash) {
  const std::string pool(60, 'p');
  g_ = std::make_unique<ManagedInstanceGroup>(&loop_, &workload_, &rec_, pool, Options(), 1);
  fake::AddPoolPair(&client_, kGcpMachinePoolKind, 1, "mp-0-bootstrap");
  InfraMachinePool imp = client_.infra_machine_pools().At(kPool);
  client_.infra_machine_pools().Remove(kPool);
  imp.meta.name = pool;
  client_.infra_machine_pools().Add(imp);
  std::map<std::string, GcpMachinePoolReconciler::Pool> pools{
      {pool, {g_.get(), Options().zones, "p"}}};
  r_ = std::make_unique<GcpMachinePoolReconciler>(&client_, &loop_, &rec_, &quota_, pools);
  Result res;
  ASSERT_TRUE(r_->Reconcile({{"default", pool}}, &res).ok());
  EXPECT_EQ(g_->instance_template().size(), 63u);
  EXPECT_EQ(g_->instance_template().substr(0, 47), std::string(46, 'p') + "-");
}

// Under the default OPPORTUNISTIC policy a rotation's new template replaces no
// VM: setInstanceTemplate leaves existing instances unless the policy is
// PROACTIVE (instanceGroupManagers.setInstanceTemplate reference,
// docs/reference/providers.md §3.2); under PROACTIVE it replaces every VM.
TEST_F(GcpMachinePoolTest, ARotationReplacesNoVmUnderOpportunistic) {
  Start(3);
  Duration d = 0;
  ASSERT_TRUE(Pass(&d).ok());
  RunTo(5 * kMinute);
  ASSERT_TRUE(Pass(&d).ok());
  fake::RotateJoinToken(&client_, "mp-0-bootstrap");
  ASSERT_TRUE(Pass(&d).ok());
  RunTo(30 * kMinute);
  EXPECT_EQ(Calls("compute:instanceGroupManagers.setInstanceTemplate"), 1u);
  for (const ManagedInstance* mi : g_->ListInstances()) {
    EXPECT_EQ(mi->template_version, 1) << mi->name << " kept its template";
  }
}

TEST_F(GcpMachinePoolTest, ARotationReplacesEveryVmUnderProactive) {
  MigOptions o = Options();
  o.update.proactive = true;
  Start(3, "mp-0-bootstrap", o);
  Duration d = 0;
  ASSERT_TRUE(Pass(&d).ok());
  RunTo(5 * kMinute);
  ASSERT_TRUE(Pass(&d).ok());
  const std::vector<const ManagedInstance*> before = g_->ListInstances();
  std::set<std::string> old_names;
  for (const ManagedInstance* mi : before) old_names.insert(mi->name);
  fake::RotateJoinToken(&client_, "mp-0-bootstrap");
  ASSERT_TRUE(Pass(&d).ok());
  RunTo(60 * kMinute);
  const std::vector<const ManagedInstance*> after = g_->ListInstances();
  ASSERT_EQ(after.size(), 3u);
  for (const ManagedInstance* mi : after) {
    EXPECT_EQ(mi->template_version, 2) << mi->name;
    EXPECT_EQ(old_names.count(mi->name), 0u) << mi->name << ": SUBSTITUTE gives a new name";
  }
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
