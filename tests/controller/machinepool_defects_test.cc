// Behaviours stated by docs/reference/capi-core.md that no upstream test covers: the defects
// D1 (nil-guard panic, PR #14234), D2 (status.ready only, PR #14030), D4
// (listed Nodes survive deletion), doReconcile (D3) and LowestNonZeroResult,
// and the Paused condition.
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

// A Running pool with one ready Node, as a previous pass left it (before the
// cluster-name label, Cluster ownerRef and v1beta2 counters were written).
class ReconcileFixture : public ::testing::Test {
 protected:
  explicit ReconcileFixture(MachinePoolOptions opts = {}) : h_(opts) {}
  void SetUp() override {
    h_.client.clusters().Add(MakeCluster("test-cluster"));
    boot_ = fake::ReadyBootstrap("bootstrap1", "secret-data");
    infra_ = fake::MakeInfra("infra1", std::vector<std::string>{"test://id-1"});
    infra_.status.ready = true;
    infra_.status.replicas = 1;
    mp_.meta = {.name = "mp", .ns = "default", .generation = 3};
    mp_.meta.finalizers = {"machinepool.cluster.x-k8s.io"};
    mp_.spec.cluster_name = "test-cluster";
    mp_.spec.replicas = 1;
    mp_.spec.template_.spec.bootstrap.config_ref = fake::BootstrapRef("bootstrap1");
    mp_.spec.template_.spec.bootstrap.data_secret_name = "secret-data";
    mp_.spec.template_.spec.infrastructure_ref = fake::InfraRef("infra1");
    mp_.spec.provider_id_list = std::vector<std::string>{"test://id-1"};
    mp_.status.replicas = 1;
    mp_.status.node_refs = {NodeRef("node-1", "uid-1")};
    mp_.status.phase = "Running";
    mp_.status.observed_generation = 2;
    mp_.status.initialization = {.infrastructure_provisioned = true,
                                 .bootstrap_data_secret_created = true};
    mp_.status.conditions = {
        {.type = "Paused", .status = "False", .reason = "NotPaused", .observed_generation = 3}};
    MachinePoolV1Beta1Status v{.ready_replicas = 1, .available_replicas = 1};
    v.conditions = {{.type = "Ready", .status = "True"},
                    {.type = "BootstrapReady", .status = "True"}};
    mp_.status.deprecated = MachinePoolDeprecatedStatus{v};
    h_.client.nodes().Add(MakeNode("node-1", "test://id-1", "True", "uid-1"));
  }
  Status Reconcile(Result* res) {
    h_.client.bootstrap_configs().Add(boot_);
    h_.client.infra_machine_pools().Add(infra_);
    h_.client.machine_pools().Add(mp_);
    MachinePoolReconciler r(&h_.client, &h_.clock, h_.deps.opts);
    return r.Reconcile({{"default", "mp"}}, res);
  }
  const MachinePool& Stored() { return h_.client.machine_pools().At({"default", "mp"}); }

  Harness h_;
  BootstrapConfig boot_;
  InfraMachinePool infra_;
  MachinePool mp_;
};

// ---- D1: failureReason/failureMessage on an external object ----

class MachinePoolNilGuardPanic : public ReconcileFixture {};

TEST_F(MachinePoolNilGuardPanic, BootstrapFailureIsRecoveredAsAnErrorAfterTheDeferredPatch) {
  boot_.status.failure_reason = "InvalidConfiguration";
  Result res;
  Status s = Reconcile(&res);
  EXPECT_EQ(s.code(), Status::Code::kInternal);
  EXPECT_EQ(s.message(),
            "panic: runtime error: invalid memory address or nil pointer dereference [recovered]");
  EXPECT_EQ(res, Result{});
  const MachinePool& mp = Stored();
  // The deferred block ran while reterr was still nil.
  EXPECT_EQ(mp.status.observed_generation, 3);
  // `if Deprecated != nil { Deprecated = {} }` wiped counters and v1beta1 conditions.
  ASSERT_TRUE(mp.status.deprecated.has_value());
  EXPECT_FALSE(mp.status.deprecated->v1beta1.has_value());
  // reconcilePhase saw readyReplicas 0 < spec.replicas 1.
  EXPECT_EQ(mp.status.phase, "ScalingUp");
  // The bootstrap config was patched before the panic; no later step ran.
  EXPECT_EQ(
      h_.client.bootstrap_configs().At({"default", "bootstrap1"}).meta.owner_references.size(), 1u);
  EXPECT_TRUE(
      h_.client.infra_machine_pools().At({"default", "infra1"}).meta.owner_references.empty());
}

TEST_F(MachinePoolNilGuardPanic, InfraFailureMessageAlsoPanicsAfterBootstrapRan) {
  infra_.status.failure_message = "instances failed to launch";
  Result res;
  Status s = Reconcile(&res);
  EXPECT_EQ(s.code(), Status::Code::kInternal);
  const MachinePool& mp = Stored();
  EXPECT_EQ(mp.status.observed_generation, 3);
  EXPECT_FALSE(mp.status.deprecated->v1beta1.has_value());
  EXPECT_EQ(h_.client.infra_machine_pools().At({"default", "infra1"}).meta.owner_references.size(),
            1u);
  // updateStatus was skipped: the infra pool never reached the scope.
  EXPECT_FALSE(mp.status.ready_replicas.has_value());
}

TEST_F(MachinePoolNilGuardPanic, WithoutADeprecatedBlockNothingIsWipedButItStillPanics) {
  mp_.status.deprecated.reset();
  boot_.status.failure_reason = "InvalidConfiguration";
  Result res;
  EXPECT_EQ(Reconcile(&res).code(), Status::Code::kInternal);
  EXPECT_FALSE(Stored().status.deprecated.has_value());
}

class MachinePoolNilGuardFixed : public ReconcileFixture {
 protected:
  MachinePoolNilGuardFixed() : ReconcileFixture({.fix_nil_guards = true}) {}
};

TEST_F(MachinePoolNilGuardFixed, FailuresAreMirroredWithTheUpstreamMessagePrefix) {
  boot_.status.failure_reason = "InvalidConfiguration";
  boot_.status.failure_message = "boom";
  Result res;
  ASSERT_TRUE(Reconcile(&res).ok());
  const MachinePoolV1Beta1Status& v = *Stored().status.deprecated->v1beta1;
  EXPECT_EQ(v.failure_reason, "InvalidConfiguration");
  EXPECT_EQ(v.failure_message,
            "Failure detected from referenced resource bootstrap.cluster.x-k8s.io/v1beta2, "
            "Kind=TestBootstrapConfig with name \"bootstrap1\": boom");
  EXPECT_EQ(v.ready_replicas, 1);
  EXPECT_EQ(Stored().status.phase, "Running");
}

// ---- D2: which InfraMachinePool field means "provisioned" ----

class MachinePoolInitializationProvisioned : public ReconcileFixture {
 protected:
  void UseContractFieldOnly() {
    infra_.status.ready.reset();
    infra_.status.initialization_provisioned = true;
  }
};

TEST_F(MachinePoolInitializationProvisioned, HeadReadsOnlyStatusReady) {
  UseContractFieldOnly();
  Result res;
  ASSERT_TRUE(Reconcile(&res).ok());
  EXPECT_EQ(Stored().status.initialization.infrastructure_provisioned, false);
  EXPECT_EQ(
      FindCondition(Stored().status.deprecated->v1beta1->conditions, "InfrastructureReady")->reason,
      "WaitingForInfrastructure");
}

class MachinePoolInitializationProvisionedFixed : public MachinePoolInitializationProvisioned {
 protected:
  MachinePoolInitializationProvisionedFixed() {
    h_.deps.opts.fix_initialization_provisioned = true;
  }
};

TEST_F(MachinePoolInitializationProvisionedFixed, Pr14030ReadsStatusInitializationProvisioned) {
  UseContractFieldOnly();
  Result res;
  ASSERT_TRUE(Reconcile(&res).ok());
  EXPECT_EQ(Stored().status.initialization.infrastructure_provisioned, true);
  EXPECT_EQ(Stored().status.phase, "Running");
}

TEST_F(MachinePoolInitializationProvisionedFixed, Pr14030FallsBackToStatusReady) {
  Result res;
  ASSERT_TRUE(Reconcile(&res).ok());
  EXPECT_EQ(Stored().status.initialization.infrastructure_provisioned, true);
}

// ---- D4: deletion keeps Nodes whose providerID is still listed ----

TEST(MachinePoolDeleteNodes, NodesStillInProviderIDListAreNotDeleted) {
  Harness h;
  h.client.clusters().Add(MakeCluster("test-cluster"));
  MachinePool mp;
  mp.meta = {.name = "mp", .ns = "default"};
  mp.meta.finalizers = {"machinepool.cluster.x-k8s.io"};
  mp.meta.deletion_timestamp = h.clock.Now();
  mp.spec.cluster_name = "test-cluster";
  mp.spec.template_.spec.infrastructure_ref = fake::InfraRef("gone");
  mp.spec.template_.spec.bootstrap.data_secret_name = "data";
  mp.spec.template_.spec.deletion.node_deletion_timeout_seconds = 10;
  mp.spec.provider_id_list = std::vector<std::string>{"test://listed"};
  mp.status.node_refs = {NodeRef("listed"), NodeRef("retired")};
  mp.status.conditions = {kNotPaused};
  h.client.machine_pools().Add(mp);
  h.client.nodes().Add(MakeNode("listed", "test://listed"));
  h.client.nodes().Add(MakeNode("retired", "test://retired"));
  MachinePoolReconciler r(&h.client, &h.clock, {});
  Result res;
  ASSERT_TRUE(r.Reconcile({{"default", "mp"}}, &res).ok());
  EXPECT_TRUE(h.client.nodes().Has({"", "listed"}));
  EXPECT_FALSE(h.client.nodes().Has({"", "retired"}));
  EXPECT_FALSE(h.client.machine_pools().Has({"default", "mp"}));
}

TEST(MachinePoolDeleteNodes, ExternalObjectsAreDeletedFirstAndTheFinalizerStays) {
  Harness h;
  h.client.clusters().Add(MakeCluster("test-cluster"));
  MachinePool mp;
  mp.meta = {.name = "mp", .ns = "default"};
  mp.meta.finalizers = {"machinepool.cluster.x-k8s.io"};
  mp.meta.deletion_timestamp = h.clock.Now();
  mp.spec.cluster_name = "test-cluster";
  mp.spec.template_.spec.infrastructure_ref = fake::InfraRef("infra1");
  mp.spec.template_.spec.bootstrap.config_ref = fake::BootstrapRef("bootstrap1");
  mp.status.conditions = {kNotPaused};
  h.client.machine_pools().Add(mp);
  InfraMachinePool infra = fake::MakeInfra("infra1", std::nullopt);
  infra.meta.finalizers = {"cloud-cleanup"};
  h.client.infra_machine_pools().Add(infra);
  h.client.bootstrap_configs().Add(fake::MakeBootstrap("bootstrap1"));
  MachinePoolReconciler r(&h.client, &h.clock, {});
  Result res;
  ASSERT_TRUE(r.Reconcile({{"default", "mp"}}, &res).ok());
  EXPECT_EQ(res, Result{});
  EXPECT_FALSE(h.client.bootstrap_configs().Has({"default", "bootstrap1"}));
  EXPECT_TRUE(
      h.client.infra_machine_pools().At({"default", "infra1"}).meta.deletion_timestamp.has_value());
  const MachinePool& stored = h.client.machine_pools().At({"default", "mp"});
  EXPECT_EQ(stored.meta.finalizers, std::vector<std::string>{"machinepool.cluster.x-k8s.io"});
  EXPECT_EQ(stored.status.phase, "Deleting");
}

// ---- D3: doReconcile and LowestNonZeroResult ----

int g_calls = 0;
Status Requeue10s(const MachinePoolDeps&, MachinePoolScope*, Result* r) {
  ++g_calls;
  r->requeue_after = 10 * kSecond;
  return Status::Ok();
}
Status Requeue5s(const MachinePoolDeps&, MachinePoolScope*, Result* r) {
  ++g_calls;
  r->requeue_after = 5 * kSecond;
  return Status::Ok();
}
Status Fails(const MachinePoolDeps&, MachinePoolScope*, Result*) {
  ++g_calls;
  return Status::Unavailable("down");
}
Status Zero(const MachinePoolDeps&, MachinePoolScope*, Result*) {
  ++g_calls;
  return Status::Ok();
}

TEST(MachinePoolDoReconcile, EveryStepRunsAfterAnErrorAndErrorsAggregate) {
  Harness h;
  MachinePool mp;
  MachinePoolScope s{.mp = &mp};
  g_calls = 0;
  Result res{.requeue_after = 99};
  Status st = DoReconcile(h.deps, &s,
                          {{Requeue10s, "a"}, {Fails, "b"}, {Requeue5s, "c"}, {Fails, "d"}}, &res);
  EXPECT_EQ(g_calls, 4);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_EQ(st.message(), "[b: down, d: down]");
  EXPECT_EQ(res, Result{});
}

TEST(MachinePoolDoReconcile, WithoutErrorsTheLowestNonZeroResultWins) {
  Harness h;
  MachinePool mp;
  MachinePoolScope s{.mp = &mp};
  Result res;
  ASSERT_TRUE(
      DoReconcile(h.deps, &s, {{Zero, "a"}, {Requeue10s, "b"}, {Requeue5s, "c"}, {Zero, "d"}}, &res)
          .ok());
  EXPECT_EQ(res, (Result{.requeue_after = 5 * kSecond}));
}

TEST(MachinePoolLowestNonZeroResult, ZeroResultsAreIgnored) {
  EXPECT_EQ(LowestNonZeroResult({}, {.requeue_after = 7}), (Result{.requeue_after = 7}));
  EXPECT_EQ(LowestNonZeroResult({.requeue_after = 7}, {}), (Result{.requeue_after = 7}));
  EXPECT_EQ(LowestNonZeroResult({}, {}), Result{});
}

TEST(MachinePoolLowestNonZeroResult, RequeueWinsThenTheSmallerRequeueAfter) {
  EXPECT_EQ(LowestNonZeroResult({.requeue = true}, {.requeue_after = 1}),
            (Result{.requeue = true}));
  EXPECT_EQ(LowestNonZeroResult({.requeue_after = 1}, {.requeue = true}),
            (Result{.requeue = true}));
  EXPECT_EQ(LowestNonZeroResult({.requeue_after = 30}, {.requeue_after = 10}),
            (Result{.requeue_after = 10}));
  EXPECT_EQ(LowestNonZeroResult({.requeue_after = 10}, {.requeue_after = 30}),
            (Result{.requeue_after = 10}));
}

// ---- Paused (util/paused) ----

class MachinePoolPaused : public ReconcileFixture {};

TEST_F(MachinePoolPaused, ClusterPausedSetsThePausedConditionAndStops) {
  Cluster paused = MakeCluster("test-cluster");
  paused.spec.paused = true;
  h_.client.clusters().Add(paused);
  Result res;
  ASSERT_TRUE(Reconcile(&res).ok());
  const Condition* c = FindCondition(Stored().status.conditions, "Paused");
  EXPECT_EQ(c->status, "True");
  EXPECT_EQ(c->reason, "Paused");
  EXPECT_EQ(c->message, "Cluster spec.paused is set to true");
  EXPECT_EQ(Stored().status.observed_generation, 2);  // no deferred block
  EXPECT_TRUE(
      h_.client.bootstrap_configs().At({"default", "bootstrap1"}).meta.owner_references.empty());
}

TEST_F(MachinePoolPaused, AnnotationAndClusterMessagesAreJoined) {
  Cluster paused = MakeCluster("test-cluster");
  paused.spec.paused = true;
  h_.client.clusters().Add(paused);
  mp_.meta.annotations["cluster.x-k8s.io/paused"] = "";
  Result res;
  ASSERT_TRUE(Reconcile(&res).ok());
  EXPECT_EQ(
      FindCondition(Stored().status.conditions, "Paused")->message,
      "Cluster spec.paused is set to true, MachinePool has the cluster.x-k8s.io/paused annotation");
}

TEST_F(MachinePoolPaused, OnlyObservedGenerationChangedDoesNotStopTheReconcile) {
  mp_.status.conditions[0].observed_generation = 1;
  Result res;
  ASSERT_TRUE(Reconcile(&res).ok());
  EXPECT_EQ(FindCondition(Stored().status.conditions, "Paused")->observed_generation, 3);
  EXPECT_EQ(Stored().status.observed_generation, 3);
}

TEST_F(MachinePoolPaused, AMissingPausedConditionIsPatchedAndTheReconcileStops) {
  mp_.status.conditions.clear();
  Result res;
  ASSERT_TRUE(Reconcile(&res).ok());
  EXPECT_EQ(FindCondition(Stored().status.conditions, "Paused")->status, "False");
  EXPECT_EQ(Stored().status.observed_generation, 2);
}

// ---- Cluster and workload errors ----

class MachinePoolReconcile : public ReconcileFixture {};

TEST_F(MachinePoolReconcile, MissingClusterIsAnError) {
  mp_.spec.cluster_name = "other";
  Result res;
  EXPECT_TRUE(Reconcile(&res).IsNotFound());
}

TEST_F(MachinePoolReconcile, MissingMachinePoolIsNotAnError) {
  MachinePoolReconciler r(&h_.client, &h_.clock, {});
  Result res;
  EXPECT_TRUE(r.Reconcile({{"default", "absent"}}, &res).ok());
}

TEST_F(MachinePoolReconcile, UnreachableWorkloadClusterFailsAfterMarkingInfraProvisioned) {
  h_.client.workload_unavailable = true;
  mp_.status.initialization.infrastructure_provisioned = false;
  Result res;
  EXPECT_EQ(Reconcile(&res).code(), Status::Code::kUnavailable);
  EXPECT_EQ(Stored().status.initialization.infrastructure_provisioned, true);
  EXPECT_EQ(Stored().status.observed_generation, 2);  // not on error
}

TEST_F(MachinePoolReconcile, ASteadyPoolConvergesWithoutAPatch) {
  Result res;
  ASSERT_TRUE(Reconcile(&res).ok());
  const uint64_t rv = Stored().meta.resource_version;
  MachinePool first = Stored();
  MachinePoolReconciler r(&h_.client, &h_.clock, {});
  ASSERT_TRUE(r.Reconcile({{"default", "mp"}}, &res).ok());
  EXPECT_EQ(Stored().meta.resource_version, rv);
  EXPECT_TRUE(Stored() == first);
  EXPECT_EQ(res, Result{});
}

}  // namespace
}  // namespace mpsim
