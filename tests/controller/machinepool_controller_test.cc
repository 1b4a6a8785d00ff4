// machinepool_controller_test.go through the full Reconcile, docs/reference/capi-core.md §6.10:
// finalizer, owner reference, requests (R1-R4), node deletion timeout,
// external deletion, finalizer removal and conditions.
#include <gtest/gtest.h>

#include "controller/machinepool_reconciler.h"
#include "tests/testing/machinepool_fixtures.h"

namespace mpsim {
namespace {

using fake::Harness;
using fake::MakeCluster;
using fake::MakeNode;
using fake::NodeRef;

using fake::kNotPaused;

MachinePool DataSecretPool(const std::string& name, const std::string& cluster) {
  MachinePool mp;
  mp.meta = {.name = name, .ns = "default"};
  mp.spec.cluster_name = cluster;
  mp.spec.replicas = 1;
  mp.spec.template_.spec.bootstrap.data_secret_name = "some valid machinepool bootstrap data";
  return mp;
}

Status Reconcile(Harness* h, const ObjectKey& key, Result* res) {
  MachinePoolReconciler r(&h->client, &h->clock, h->deps.opts);
  return r.Reconcile({key}, res);
}

// ---- TestMachinePoolFinalizer ----

class MachinePoolFinalizer : public ::testing::Test {
 protected:
  void SetUp() override {
    h_.client.clusters().Add(MakeCluster("valid-cluster"));
    h_.client.machine_pools().Add(DataSecretPool("machinePool1", "valid-cluster"));
    MachinePool with_finalizer = DataSecretPool("machinePool2", "valid-cluster");
    with_finalizer.meta.finalizers = {"some-other-finalizer"};
    h_.client.machine_pools().Add(with_finalizer);
  }
  Harness h_;
};

TEST_F(MachinePoolFinalizer, ShouldAddAMachinePoolFinalizerToTheMachinePoolIfItDoesntHaveOne) {
  Result res;
  (void)Reconcile(&h_, {"default", "machinePool1"}, &res);
  EXPECT_EQ(h_.client.machine_pools().At({"default", "machinePool1"}).meta.finalizers,
            (std::vector<std::string>{"machinepool.cluster.x-k8s.io"}));
}

TEST_F(MachinePoolFinalizer,
       ShouldAppendTheMachinePoolFinalizerToTheMachinePoolIfItAlreadyHasAFinalizer) {
  Result res;
  (void)Reconcile(&h_, {"default", "machinePool2"}, &res);
  EXPECT_EQ(h_.client.machine_pools().At({"default", "machinePool2"}).meta.finalizers,
            (std::vector<std::string>{"some-other-finalizer", "machinepool.cluster.x-k8s.io"}));
}

// ---- TestMachinePoolOwnerReference ----

TEST(MachinePoolOwnerReference,
     ShouldAddOwnerReferenceToMachinePoolReferencingAClusterWithCorrectTypeMeta) {
  Harness h;
  h.client.clusters().Add(MakeCluster("test-cluster"));
  MachinePool invalid = DataSecretPool("machinePool1", "invalid");
  invalid.spec.template_.spec.bootstrap.data_secret_name.reset();
  MachinePool valid = DataSecretPool("machinePool2", "test-cluster");
  MachinePool valid_mp = DataSecretPool("machinePool3", "test-cluster");
  valid_mp.meta.labels["cluster.x-k8s.io/cluster-name"] = "valid-cluster";
  for (MachinePool* mp : {&invalid, &valid, &valid_mp}) {
    mp->status.conditions = {kNotPaused};
    h.client.machine_pools().Add(*mp);
  }
  const ObjectKey key{"default", "machinePool2"};
  Result res;
  (void)Reconcile(&h, key, &res);  // this first pass adds the finalizer
  EXPECT_EQ(res, Result{});
  const std::vector<std::string>& finalizers = h.client.machine_pools().At(key).meta.finalizers;
  EXPECT_NE(std::find(finalizers.begin(), finalizers.end(), "machinepool.cluster.x-k8s.io"),
            finalizers.end());
  (void)Reconcile(&h, key, &res);
  EXPECT_EQ(h.client.machine_pools().At(key).meta.owner_references,
            (std::vector<OwnerReference>{{.api_version = "cluster.x-k8s.io/v1beta2",
                                          .kind = "Cluster",
                                          .name = "test-cluster",
                                          .uid = ""}}));
}

// ---- TestReconcileMachinePoolRequest (R1-R4) ----

class ReconcileMachinePoolRequest : public ::testing::Test {
 protected:
  void SetUp() override {
    h_.client.clusters().Add(MakeCluster("test-cluster"));
    InfraMachinePool infra =
        fake::MakeInfra("infra-config1", std::vector<std::string>{"test://id-1"});
    infra.kind = fake::kTestInfraMachinePoolKind;
    infra.status.ready = true;
    h_.client.infra_machine_pools().Add(infra);
    h_.client.bootstrap_configs().Add(fake::MakeBootstrap("test-bootstrap"));
  }
  // The "deleted" pool of R2-R4, with a Node whose providerID left the list.
  void AddDeletingPool(Time deletion, int32_t timeout_seconds, bool node_delete_fails) {
    MachinePool mp;
    mp.meta = {.name = "deleted", .ns = "default"};
    mp.meta.labels["cluster.x-k8s.io/control-plane"] = "";
    mp.meta.finalizers = {"machinepool.cluster.x-k8s.io"};
    mp.meta.deletion_timestamp = deletion;
    mp.spec.cluster_name = "test-cluster";
    mp.spec.replicas = 1;
    mp.spec.template_.spec.infrastructure_ref =
        fake::InfraRef("infra-config1-already-deleted", fake::kTestInfraMachinePoolKind);
    mp.spec.template_.spec.bootstrap.data_secret_name = "data";
    mp.spec.template_.spec.deletion.node_deletion_timeout_seconds = timeout_seconds;
    mp.spec.provider_id_list = std::vector<std::string>{"aws:///us-test-2a/i-013ab00756982217f"};
    mp.status.node_refs = {NodeRef("test-node")};
    mp.status.conditions = {kNotPaused};
    h_.client.machine_pools().Add(mp);
    h_.client.nodes().Add(MakeNode("test-node", "aws:///us-test-2c/i-013ab00756982217f"));
    if (node_delete_fails) {
      h_.client.nodes().FailOn(fake::Verb::kDelete, Status::Internal("node deletion failed"));
    }
  }
  bool Exists(const std::string& name) { return h_.client.machine_pools().Has({"default", name}); }

  Harness h_;
};

TEST_F(ReconcileMachinePoolRequest, SuccessfullyReconcileMachinePool) {
  MachinePool mp;
  mp.meta = {.name = "created", .ns = "default"};
  mp.meta.finalizers = {"machinepool.cluster.x-k8s.io"};
  mp.spec.cluster_name = "test-cluster";
  mp.spec.provider_id_list = std::vector<std::string>{"test://id-1"};
  mp.spec.replicas = 1;
  mp.spec.template_.spec.infrastructure_ref =
      fake::InfraRef("infra-config1", fake::kTestInfraMachinePoolKind);
  mp.spec.template_.spec.bootstrap.data_secret_name = "data";
  mp.status.replicas = 1;
  mp.status.deprecated = MachinePoolDeprecatedStatus{MachinePoolV1Beta1Status{.ready_replicas = 1}};
  mp.status.node_refs = {NodeRef("test")};
  mp.status.observed_generation = 1;
  mp.status.conditions = {kNotPaused};
  h_.client.machine_pools().Add(mp);
  Result res;
  ASSERT_TRUE(Reconcile(&h_, {"default", "created"}, &res).ok());
  EXPECT_EQ(res, Result{});
  ASSERT_TRUE(Exists("created"));
  // Derived (d): errNoAvailableNodes keeps the stale nodeRef; phase Running.
  const MachinePool& got = h_.client.machine_pools().At({"default", "created"});
  EXPECT_EQ(got.status.node_refs, std::vector<NodeReference>{NodeRef("test")});
  EXPECT_EQ(got.status.phase, "Running");
}

TEST_F(
    ReconcileMachinePoolRequest,
    SuccessfullyReconcileMachinePoolWithDeletionTimestampAndNodeDeletionTimeoutSecondsNotPassedWhenNodesCanBeDeleted) {
  AddDeletingPool(h_.clock.Now(), 10 * 60, /*node_delete_fails=*/false);
  Result res;
  ASSERT_TRUE(Reconcile(&h_, {"default", "deleted"}, &res).ok());
  EXPECT_EQ(res, Result{});
  EXPECT_FALSE(Exists("deleted"));
}

TEST_F(
    ReconcileMachinePoolRequest,
    FailReconcileMachinePoolWithDeletionTimestampAndNodeDeletionTimeoutSecondsNotPassedWhenNodesCannotBeDeleted) {
  AddDeletingPool(h_.clock.Now(), 10 * 60, /*node_delete_fails=*/true);
  Result res;
  EXPECT_FALSE(Reconcile(&h_, {"default", "deleted"}, &res).ok());
  EXPECT_EQ(res, Result{});
  EXPECT_TRUE(Exists("deleted"));
}

TEST_F(
    ReconcileMachinePoolRequest,
    SuccessfullyReconcileMachinePoolWithDeletionTimestampAndNodeDeletionTimeoutSecondsPassedWhenNodesCannotBeDeleted) {
  AddDeletingPool(h_.clock.Now() - kMinute, 10, /*node_delete_fails=*/true);
  Result res;
  ASSERT_TRUE(Reconcile(&h_, {"default", "deleted"}, &res).ok());
  EXPECT_EQ(res, Result{});
  EXPECT_FALSE(Exists("deleted"));
}

// ---- TestMachinePoolNodeDeleteTimeoutPassed ----

class MachinePoolNodeDeleteTimeoutPassed : public ::testing::Test {
 protected:
  MachinePool Pool(std::optional<Time> deletion, std::optional<int32_t> timeout) {
    MachinePool mp;
    mp.meta = {.name = "machinepool", .ns = "default"};
    mp.meta.deletion_timestamp = deletion;
    mp.spec.template_.spec.deletion.node_deletion_timeout_seconds = timeout;
    return mp;
  }
  const Time now_ = 10 * kHour;
};

TEST_F(MachinePoolNodeDeleteTimeoutPassed, FalseIfDeletionTimestampNotSet) {
  EXPECT_FALSE(IsMachinePoolNodeDeleteTimeoutPassed(Pool(std::nullopt, std::nullopt), now_));
}

TEST_F(MachinePoolNodeDeleteTimeoutPassed,
       FalseIfDeletionTimestampSetToNowAndNodeDeletionTimeoutSecondsNotSet) {
  EXPECT_FALSE(IsMachinePoolNodeDeleteTimeoutPassed(Pool(now_, std::nullopt), now_));
}

TEST_F(MachinePoolNodeDeleteTimeoutPassed,
       FalseIfDeletionTimestampSetToNowAndNodeDeletionTimeoutSecondsSetTo0) {
  EXPECT_FALSE(IsMachinePoolNodeDeleteTimeoutPassed(Pool(now_, 0), now_));
}

TEST_F(MachinePoolNodeDeleteTimeoutPassed,
       FalseIfDeletionTimestampSetToNowAndNodeDeletionTimeoutSecondsSetTo1m) {
  EXPECT_FALSE(IsMachinePoolNodeDeleteTimeoutPassed(Pool(now_, 60), now_));
}

TEST_F(MachinePoolNodeDeleteTimeoutPassed,
       TrueIfDeletionTimestampSetToNowMinus1mAndNodeDeletionTimeoutSecondsSetTo10s) {
  EXPECT_TRUE(IsMachinePoolNodeDeleteTimeoutPassed(Pool(now_ - kMinute, 10), now_));
}

// Not upstream: deletionTimestamp + timeout must be strictly before now.
TEST_F(MachinePoolNodeDeleteTimeoutPassed, FalseAtExactlyTheTimeout) {
  EXPECT_FALSE(IsMachinePoolNodeDeleteTimeoutPassed(Pool(now_ - 10 * kSecond, 10), now_));
}

// ---- TestReconcileMachinePoolDeleteExternal ----

class ReconcileMachinePoolDeleteExternal : public ::testing::Test {
 protected:
  bool Run(bool bootstrap_exists, bool infra_exists) {
    h_.client.clusters().Add(MakeCluster("test-cluster"));
    MachinePool mp;
    mp.meta = {.name = "delete", .ns = "default"};
    mp.spec.cluster_name = "test-cluster";
    mp.spec.replicas = 1;
    mp.spec.template_.spec.infrastructure_ref =
        fake::InfraRef("delete-infra", fake::kTestInfraMachinePoolKind);
    mp.spec.template_.spec.bootstrap.config_ref = fake::BootstrapRef("delete-bootstrap");
    h_.client.machine_pools().Add(mp);
    if (bootstrap_exists)
      h_.client.bootstrap_configs().Add(fake::MakeBootstrap("delete-bootstrap"));
    if (infra_exists)
      h_.client.infra_machine_pools().Add(fake::MakeInfra("delete-infra", std::nullopt));
    bool ok = false;
    EXPECT_TRUE(ReconcileDeleteExternal(h_.deps, mp, &ok).ok());
    return ok;
  }
  Harness h_;
};

TEST_F(ReconcileMachinePoolDeleteExternal,
       ShouldContinueToReconcileDeleteOfExternalRefsSinceBothRefsExists) {
  EXPECT_FALSE(Run(true, true));
  // Derived (d): both deletes were issued in this pass.
  EXPECT_EQ(h_.client.bootstrap_configs().size(), 0u);
  EXPECT_EQ(h_.client.infra_machine_pools().size(), 0u);
}

TEST_F(ReconcileMachinePoolDeleteExternal,
       ShouldContinueToReconcileDeleteOfExternalRefsSinceInfraRefExist) {
  EXPECT_FALSE(Run(false, true));
}

TEST_F(ReconcileMachinePoolDeleteExternal,
       ShouldContinueToReconcileDeleteOfExternalRefsSinceBootstrapRefExist) {
  EXPECT_FALSE(Run(true, false));
}

TEST_F(ReconcileMachinePoolDeleteExternal,
       ShouldNoLongerReconcileDeletionOfExternalRefsSinceBothDontExist) {
  EXPECT_TRUE(Run(false, false));
}

// ---- TestRemoveMachinePoolFinalizerAfterDeleteReconcile ----

TEST(RemoveMachinePoolFinalizerAfterDeleteReconcile, RemovesOnlyTheMachinePoolFinalizer) {
  Harness h;
  h.client.clusters().Add(MakeCluster("test-cluster"));
  MachinePool mp;
  mp.meta = {.name = "delete123", .ns = "default"};
  mp.meta.finalizers = {"machinepool.cluster.x-k8s.io", "test"};
  mp.meta.deletion_timestamp = h.clock.Now();
  mp.spec.cluster_name = "test-cluster";
  mp.spec.replicas = 1;
  mp.spec.template_.spec.infrastructure_ref =
      fake::InfraRef("infra-config1", fake::kTestInfraMachinePoolKind);
  mp.spec.template_.spec.bootstrap.data_secret_name = "data";
  mp.status.conditions = {kNotPaused};
  h.client.machine_pools().Add(mp);
  Result res;
  ASSERT_TRUE(Reconcile(&h, {"default", "delete123"}, &res).ok());
  EXPECT_EQ(h.client.machine_pools().At({"default", "delete123"}).meta.finalizers,
            std::vector<std::string>{"test"});
}

// ---- TestMachinePoolConditions ----

class MachinePoolConditions : public ::testing::Test {
 protected:
  void Setup(bool data_secret_created, bool infra_ready) {
    h_.client.clusters().Add(MakeCluster("test-cluster"));
    boot_ = fake::ReadyBootstrap("bootstrap1", "data", data_secret_created);
    infra_ = fake::MakeInfra("infra1", std::vector<std::string>{"azure://westus2/id-node-4",
                                                                "aws://us-east-1/id-node-1"});
    infra_.kind = fake::kTestInfraMachinePoolKind;
    infra_.status.ready = infra_ready;
    mp_.meta = {.name = "blah", .ns = "default"};
    mp_.meta.finalizers = {"machinepool.cluster.x-k8s.io"};
    mp_.spec.cluster_name = "test-cluster";
    mp_.spec.replicas = 2;
    mp_.spec.template_.spec.infrastructure_ref =
        fake::InfraRef("infra1", fake::kTestInfraMachinePoolKind);
    mp_.spec.template_.spec.bootstrap.config_ref = fake::BootstrapRef("bootstrap1");
    mp_.status.conditions = {kNotPaused};
    // Ready conditions with an empty status, as in the upstream node list.
    for (const auto& [name, pid] : {std::pair{"node-1", "aws://us-east-1/id-node-1"},
                                    std::pair{"azure-node-4", "azure://westus2/id-node-4"}}) {
      Node n = MakeNode(name, pid);
      n.status.conditions = {{.type = "Ready"}};
      h_.client.nodes().Add(n);
    }
  }
  Status Run() {
    h_.client.bootstrap_configs().Add(boot_);
    h_.client.infra_machine_pools().Add(infra_);
    h_.client.machine_pools().Add(mp_);
    Result res;
    return Reconcile(&h_, {"default", "blah"}, &res);
  }
  const Condition* Get(const std::string& type) {
    const MachinePool& mp = h_.client.machine_pools().At({"default", "blah"});
    return FindCondition(mp.status.deprecated->v1beta1->conditions, type);
  }
  static Condition CustomReasonNotReady() {
    return {.type = "Ready", .status = "False", .reason = "Custom reason", .severity = "Info"};
  }

  Harness h_;
  BootstrapConfig boot_;
  InfraMachinePool infra_;
  MachinePool mp_;
};

TEST_F(MachinePoolConditions, AllConditionsTrue) {
  Setup(true, true);
  mp_.spec.provider_id_list =
      std::vector<std::string>{"azure://westus2/id-node-4", "aws://us-east-1/id-node-1"};
  mp_.status.node_refs = {NodeRef("node-1"), NodeRef("azure-node-4")};
  mp_.status.replicas = 2;
  mp_.status.deprecated =
      MachinePoolDeprecatedStatus{MachinePoolV1Beta1Status{.ready_replicas = 2}};
  ASSERT_TRUE(Run().ok());
  const MachinePool& mp = h_.client.machine_pools().At({"default", "blah"});
  const Conditions& cs = mp.status.deprecated->v1beta1->conditions;
  ASSERT_FALSE(cs.empty());
  for (const Condition& c : cs) EXPECT_EQ(c.status, "True") << c.type;
  for (const char* type : {"Ready", "BootstrapReady", "InfrastructureReady", "ReplicasReady"}) {
    EXPECT_NE(FindCondition(cs, type), nullptr) << type;
  }
}

TEST_F(MachinePoolConditions, BoostrapNotReady) {
  Setup(false, true);
  boot_.status.conditions = {CustomReasonNotReady()};
  ASSERT_TRUE(Run().ok());
  ASSERT_NE(Get("BootstrapReady"), nullptr);
  EXPECT_EQ(Get("BootstrapReady")->status, "False");
  EXPECT_EQ(Get("BootstrapReady")->reason, "Custom reason");
}

TEST_F(MachinePoolConditions, BootstrapNotReadyWithFallbackCondition) {
  Setup(false, true);
  ASSERT_TRUE(Run().ok());
  ASSERT_NE(Get("BootstrapReady"), nullptr);
  EXPECT_EQ(Get("BootstrapReady")->status, "False");
  ASSERT_NE(Get("Ready"), nullptr);
  EXPECT_EQ(Get("Ready")->status, "False");
}

TEST_F(MachinePoolConditions, InfrastructureNotReady) {
  Setup(true, false);
  infra_.status.conditions = {CustomReasonNotReady()};
  ASSERT_TRUE(Run().ok());
  ASSERT_NE(Get("InfrastructureReady"), nullptr);
  EXPECT_EQ(Get("InfrastructureReady")->status, "False");
  EXPECT_EQ(Get("InfrastructureReady")->reason, "Custom reason");
}

TEST_F(MachinePoolConditions, InfrastructureNotReadyWithFallbackCondition) {
  Setup(true, false);
  ASSERT_TRUE(Run().ok());
  ASSERT_NE(Get("InfrastructureReady"), nullptr);
  EXPECT_EQ(Get("InfrastructureReady")->status, "False");
  ASSERT_NE(Get("Ready"), nullptr);
  EXPECT_EQ(Get("Ready")->status, "False");
}

TEST_F(MachinePoolConditions, IncorrectInfrastructureReference) {
  Setup(true, false);
  mp_.spec.template_.spec.infrastructure_ref =
      fake::InfraRef("does-not-exist", fake::kTestInfraMachinePoolKind);
  EXPECT_FALSE(Run().ok());
  ASSERT_NE(Get("InfrastructureReady"), nullptr);
  EXPECT_EQ(Get("InfrastructureReady")->status, "False");
  EXPECT_EQ(Get("InfrastructureReady")->reason, "IncorrectExternalRef");  // derived (d)
  EXPECT_EQ(Get("InfrastructureReady")->severity, "Error");
}

}  // namespace
}  // namespace mpsim
