// TestReconcileMachinePoolMachines and TestInfraMachineToMachinePoolMapper
// (machinepool_controller_phases_test.go), docs/reference/capi-core.md §6.4 and §6.5.
#include <gtest/gtest.h>

#include <map>

#include "controller/label_format.h"
#include "controller/machinepool_internal.h"
#include "controller/machinepool_reconciler.h"
#include "tests/testing/machinepool_fixtures.h"

namespace mpsim {
namespace {

using fake::Harness;

constexpr const char* kNs = "test-machinepool-machines";
constexpr const char* kGenericInfraMachineKind = "GenericInfrastructureMachine";

// getMachinePool(replicas, name, clusterName, ns).
MachinePool GetMachinePool(int32_t replicas, const std::string& name) {
  MachinePool mp;
  mp.meta = {.name = name, .ns = kNs};
  mp.meta.labels["cluster.x-k8s.io/cluster-name"] = "test-cluster";
  mp.spec.cluster_name = "test-cluster";
  mp.spec.replicas = replicas;
  mp.spec.template_.spec.cluster_name = "test-cluster";
  mp.spec.template_.spec.bootstrap.config_ref =
      ObjectReference{.api_version = fake::kBootstrapGroupVersion,
                      .kind = "GenericBootstrapConfig",
                      .name = "bootstrap-config1"};
  mp.spec.template_.spec.infrastructure_ref =
      fake::InfraRef("infra-config1", kGenericInfraMachineKind);
  return mp;
}

// getInfraMachines: <mp>-infra-<i> labelled with cluster and pool name.
void AddInfraMachines(Harness* h, int n, const std::string& mp_name) {
  for (int i = 0; i < n; ++i) {
    InfraMachine im;
    im.meta = {.name = mp_name + "-infra-" + std::to_string(i), .ns = kNs};
    im.meta.labels = {{"cluster.x-k8s.io/cluster-name", "test-cluster"},
                      {"cluster.x-k8s.io/pool-name", mp_name}};
    im.kind = kGenericInfraMachineKind;
    h->client.infra_machines().Add(im);
  }
}

// getMachines: <mp>-machine-<i> referencing <mp>-infra-<i>.
void AddMachines(Harness* h, int n, const std::string& mp_name) {
  for (int i = 0; i < n; ++i) {
    Machine m;
    m.meta = {.name = mp_name + "-machine-" + std::to_string(i), .ns = kNs};
    m.meta.labels = {{"cluster.x-k8s.io/cluster-name", "test-cluster"},
                     {"cluster.x-k8s.io/pool-name", mp_name}};
    m.spec.cluster_name = "test-cluster";
    m.spec.infrastructure_ref = {.api_version = fake::kInfraGroupVersion,
                                 .kind = kGenericInfraMachineKind,
                                 .name = mp_name + "-infra-" + std::to_string(i)};
    h->client.machines().Add(m);
  }
}

InfraMachinePool GenericInfraPool(const std::string& name, bool with_machine_kind) {
  InfraMachinePool infra = fake::MakeInfra(name, std::vector<std::string>{"test://id-1"}, kNs);
  infra.kind = "GenericInfrastructureMachinePool";
  infra.status.ready = true;
  if (with_machine_kind) infra.status.infrastructure_machine_kind = kGenericInfraMachineKind;
  return infra;
}

std::vector<std::shared_ptr<const Machine>> ListPoolMachines(Harness* h, const std::string& mp) {
  return h->client.Machines().List(
      {.ns = kNs,
       .match_labels = {{"cluster.x-k8s.io/cluster-name", "test-cluster"},
                        {"cluster.x-k8s.io/pool-name", mp}}});
}

TEST(ReconcileMachinePoolMachines, ShouldDoNothingIfMachinesAlreadyExist) {
  Harness h;
  MachinePool mp = GetMachinePool(2, "machinepool-test-1");
  h.client.machine_pools().Add(mp);
  AddInfraMachines(&h, 2, mp.meta.name);
  AddMachines(&h, 2, mp.meta.name);
  InfraMachinePool infra = GenericInfraPool("infra-config1", true);
  h.client.infra_machine_pools().Add(infra);
  MachinePoolScope scope{.mp = &mp};
  ASSERT_TRUE(ReconcileMachines(h.deps, &scope, infra).ok());
  ReconcilePhase(&mp);
  auto machines = ListPoolMachines(&h, mp.meta.name);
  ASSERT_EQ(machines.size(), 2u);
  for (const auto& m : machines) {
    EXPECT_TRUE(h.client.infra_machines().Has({kNs, m->spec.infrastructure_ref.name}));
  }
  EXPECT_EQ(h.client.machines().calls(fake::Verb::kCreate), 0);
}

TEST(ReconcileMachinePoolMachines, ShouldCreateTwoMachinesIfTwoInfraMachinesExist) {
  Harness h;
  MachinePool mp = GetMachinePool(2, "machinepool-test-2");
  h.client.machine_pools().Add(mp);
  AddInfraMachines(&h, 2, mp.meta.name);
  InfraMachinePool infra = GenericInfraPool("infra-config2", true);
  h.client.infra_machine_pools().Add(infra);
  MachinePoolScope scope{.mp = &mp};
  ASSERT_TRUE(ReconcileMachines(h.deps, &scope, infra).ok());
  ReconcilePhase(&mp);
  auto machines = ListPoolMachines(&h, mp.meta.name);
  ASSERT_EQ(machines.size(), 2u);
  for (const auto& m : machines) {
    EXPECT_TRUE(h.client.infra_machines().Has({kNs, m->spec.infrastructure_ref.name}));
  }
  // Derived (d): named after their InfraMachines, controlled by the pool.
  EXPECT_EQ(machines[0]->meta.name, "machinepool-test-2-infra-0");
  EXPECT_EQ(machines[1]->meta.name, "machinepool-test-2-infra-1");
  EXPECT_TRUE(machines[0]->meta.owner_references.at(0).controller);
  EXPECT_EQ(machines[0]->meta.owner_references.at(0).kind, "MachinePool");
}

// waitForMachineCreation (machinepool_controller_phases.go:557-587) holds
// the pass until the cache shows what it created, so the pass's
// getMachinesForMachinePool lists them, in name order, even where the
// cache has not caught up.
TEST(ReconcileMachinePoolMachines, MachinesCreatedInAPassAreListedByThatPass) {
  Harness h;
  MachinePool mp = GetMachinePool(2, "machinepool-test-6");
  h.client.machine_pools().Add(mp);
  AddInfraMachines(&h, 2, mp.meta.name);
  InfraMachinePool infra = GenericInfraPool("infra-config6", true);
  MachinePoolScope scope{.mp = &mp};
  ASSERT_TRUE(ReconcileMachines(h.deps, &scope, infra).ok());
  ASSERT_EQ(scope.created_machines.size(), 2u);
  // A cache that lags: the second Machine is not in it yet.
  h.client.machines().Remove({kNs, "machinepool-test-6-infra-1"});
  Result r;
  ASSERT_TRUE(GetMachinesForMachinePool(h.deps, &scope, &r).ok());
  ASSERT_EQ(scope.machines.size(), 2u);
  EXPECT_EQ(scope.machines[0]->meta.name, "machinepool-test-6-infra-0");
  EXPECT_EQ(scope.machines[1]->meta.name, "machinepool-test-6-infra-1");
}

TEST(ReconcileMachinePoolMachines, ShouldDoNothingIfMachinepoolDoesNotSupportMachinepoolMachines) {
  Harness h;
  MachinePool mp = GetMachinePool(2, "machinepool-test-3");
  h.client.machine_pools().Add(mp);
  InfraMachinePool infra = GenericInfraPool("infra-config3", false);
  h.client.infra_machine_pools().Add(infra);
  MachinePoolScope scope{.mp = &mp};
  ASSERT_TRUE(ReconcileMachines(h.deps, &scope, infra).ok());
  ReconcilePhase(&mp);
  EXPECT_TRUE(ListPoolMachines(&h, mp.meta.name).empty());
}

// createOrUpdateMachines over more members than the reconcile looks ahead:
// every InfraMachine of the pool's kind ends with exactly one Machine, the
// existing ones are taken over (controller reference), the others created,
// and an InfraMachine of another kind gets none.
TEST(CreateOrUpdateMachines, EveryMemberOfTheKindGetsOneMachine) {
  Harness h;
  MachinePool mp = GetMachinePool(20, "machinepool-many");
  mp.meta.uid = "mp-uid";
  h.client.machine_pools().Add(mp);
  AddInfraMachines(&h, 20, mp.meta.name);
  AddMachines(&h, 12, mp.meta.name);
  InfraMachine other;
  other.meta = {.name = "machinepool-many-other", .ns = kNs};
  other.meta.labels = {{"cluster.x-k8s.io/cluster-name", "test-cluster"},
                       {"cluster.x-k8s.io/pool-name", mp.meta.name}};
  other.kind = "SomeOtherInfrastructureMachine";
  h.client.infra_machines().Add(other);
  InfraMachinePool infra = GenericInfraPool("infra-many", true);
  MachinePoolScope scope{.mp = &mp};
  ASSERT_TRUE(ReconcileMachines(h.deps, &scope, infra).ok());

  EXPECT_EQ(h.client.machines().calls(fake::Verb::kCreate), 8);
  std::map<std::string, int> machines_of;
  for (const auto& m : ListPoolMachines(&h, mp.meta.name)) {
    ++machines_of[m->spec.infrastructure_ref.name];
    ASSERT_EQ(m->meta.owner_references.size(), 1u) << m->meta.name;
    EXPECT_EQ(m->meta.owner_references[0].uid, "mp-uid") << m->meta.name;
  }
  ASSERT_EQ(machines_of.size(), 20u);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(machines_of[mp.meta.name + "-infra-" + std::to_string(i)], 1) << i;
  }
  EXPECT_EQ(machines_of.count("machinepool-many-other"), 0u);
}

// infraMachineToMachine[infraRef.Name] = machine: when two Machines name one
// InfraMachine, the later in the List is the one brought up to date.
TEST(CreateOrUpdateMachines, ARepeatedInfrastructureRefUpdatesTheLaterMachine) {
  Harness h;
  MachinePool mp = GetMachinePool(1, "machinepool-dup");
  h.client.machine_pools().Add(mp);
  AddInfraMachines(&h, 1, mp.meta.name);
  AddMachines(&h, 1, mp.meta.name);  // machinepool-dup-machine-0 -> machinepool-dup-infra-0
  Machine later = h.client.machines().At({kNs, "machinepool-dup-machine-0"});
  later.meta.name = "machinepool-dup-machine-1";
  h.client.machines().Add(later);
  InfraMachinePool infra = GenericInfraPool("infra-dup", true);
  MachinePoolScope scope{.mp = &mp};
  ASSERT_TRUE(ReconcileMachines(h.deps, &scope, infra).ok());

  EXPECT_EQ(h.client.machines().calls(fake::Verb::kCreate), 0);
  EXPECT_TRUE(
      h.client.machines().At({kNs, "machinepool-dup-machine-0"}).meta.owner_references.empty());
  EXPECT_EQ(h.client.machines().At({kNs, "machinepool-dup-machine-1"}).meta.owner_references.size(),
            1u);
}

// ---- TestInfraMachineToMachinePoolMapper ----

constexpr const char* kLongName =
    "machinepool-very-very-very-very-very-very-very-very-very-very-very-very-very-very-very-"
    "very-very-very-very-very-long";

class InfraMachineToMachinePoolMapper : public ::testing::Test {
 protected:
  void SetUp() override {
    AddPool("machinepool-1", "default", "test-cluster");
    AddPool("machinepool-2", "other-namespace", "test-cluster");
    AddPool("machinepool-3", "default", "other-cluster");
    AddPool(kLongName, "default", "other-cluster");
  }
  void AddPool(const std::string& name, const std::string& ns, const std::string& cluster) {
    MachinePool mp;
    mp.meta = {.name = name, .ns = ns};
    mp.meta.labels["cluster.x-k8s.io/cluster-name"] = cluster;
    h_.client.machine_pools().Add(mp);
  }
  static InfraMachine Infra(const std::string& name, const std::string& cluster,
                            const std::string& pool_label) {
    InfraMachine im;
    im.meta = {.name = name, .ns = "default"};
    im.meta.labels = {{"cluster.x-k8s.io/cluster-name", cluster},
                      {"cluster.x-k8s.io/pool-name", pool_label}};
    im.kind = "InfrastructureMachine";
    return im;
  }

  Harness h_;
};

TEST_F(InfraMachineToMachinePoolMapper, MatchMachinePoolNameWithLabelValue) {
  auto result = mpsim::InfraMachineToMachinePoolMapper(
      &h_.client, Infra("infra-machine1", "test-cluster", MustFormatValue("machinepool-1")));
  ASSERT_EQ(result.size(), 1u);
  EXPECT_EQ(result[0].key.name, "machinepool-1");
  EXPECT_EQ(result[0].key.ns, "default");
}

TEST_F(InfraMachineToMachinePoolMapper, MatchHashOfMachinePoolNameWithLabelHash) {
  auto result = mpsim::InfraMachineToMachinePoolMapper(
      &h_.client, Infra("infra-machine2", "other-cluster", MustFormatValue(kLongName)));
  ASSERT_EQ(result.size(), 1u);
  EXPECT_EQ(result[0].key.name, kLongName);
  EXPECT_EQ(result[0].key.ns, "default");
}

TEST_F(InfraMachineToMachinePoolMapper, ReturnNilIfNoMachinePoolMatches) {
  auto result = mpsim::InfraMachineToMachinePoolMapper(
      &h_.client, Infra("infra-machine3", "other-cluster", MustFormatValue("missing-machinepool")));
  EXPECT_TRUE(result.empty());
}

TEST(MachinePoolMustFormatValue, HashesInvalidLabelValues) {
  EXPECT_EQ(MustFormatValue("machinepool-1"), "machinepool-1");
  // fnv32a + base64url, computed independently of the port.
  EXPECT_EQ(MustFormatValue(kLongName), "hash_7Q_PuQ_z");
}

// Not upstream: a full Reconcile creates the Machines, marks them UpToDate in
// the same pass and counts them in the v1beta2 status (docs/reference/capi-core.md §1.7, §1.9).
TEST(MachinePoolMachinesReconcile, MachinesAreCreatedMarkedUpToDateAndCounted) {
  Harness h;
  h.client.clusters().Add(fake::MakeCluster("test-cluster", kNs));
  MachinePool mp = GetMachinePool(2, "mp");
  mp.spec.template_.spec.bootstrap.config_ref.reset();
  mp.spec.template_.spec.bootstrap.data_secret_name = "data";
  mp.meta.finalizers = {"machinepool.cluster.x-k8s.io"};
  mp.status.conditions = {{.type = "Paused", .status = "False", .reason = "NotPaused"}};
  h.client.machine_pools().Add(mp);
  InfraMachinePool infra = GenericInfraPool("infra-config1", true);
  infra.spec.provider_id_list = std::vector<std::string>{"test://0", "test://1"};
  infra.status.replicas = 2;
  h.client.infra_machine_pools().Add(infra);
  AddInfraMachines(&h, 2, "mp");
  for (int i = 0; i < 2; ++i) {
    const std::string id = "test://" + std::to_string(i);
    InfraMachine im = h.client.infra_machines().At({kNs, "mp-infra-" + std::to_string(i)});
    im.spec.provider_id = id;
    h.client.infra_machines().Add(im);
    Node n = fake::MakeNode("node-" + std::to_string(i), id, "True", "uid-" + std::to_string(i));
    n.status.node_info.kubelet_version = i == 0 ? "v1.31.1" : "v1.32.0";
    h.client.nodes().Add(n);
  }
  MachinePoolReconciler r(&h.client, &h.clock, {});
  Result res;
  ASSERT_TRUE(r.Reconcile({{kNs, "mp"}}, &res).ok());
  auto machines = ListPoolMachines(&h, "mp");
  ASSERT_EQ(machines.size(), 2u);
  EXPECT_EQ(machines[0]->spec.version, "v1.31.1");
  EXPECT_EQ(machines[1]->spec.version, "v1.32.0");
  EXPECT_TRUE(IsConditionTrue(machines[0]->status.conditions, "UpToDate"));
  const MachinePool& stored = h.client.machine_pools().At({kNs, "mp"});
  EXPECT_EQ(stored.status.up_to_date_replicas, 2);
  EXPECT_EQ(stored.status.ready_replicas, 0);  // no Machine controller sets Ready here
  EXPECT_EQ(stored.status.versions, (std::vector<VersionCount>{{"v1.31.1", 1}, {"v1.32.0", 1}}));
  EXPECT_EQ(stored.status.node_refs.size(), 2u);
}

// setMachinesUptoDate (docs/reference/capi-core.md §1.7): UpToDate True on each Machine,
// False with NotUpToDate while it is being deleted; a Machine whose condition
// already says so at its generation is left alone (no patch).
TEST(MachinePoolMachinesReconcile, SetMachinesUpToDateMarksEachMachineByItsDeletion) {
  Harness h;
  AddMachines(&h, 3, "mp");
  Machine deleting = h.client.machines().At({kNs, "mp-machine-0"});
  deleting.meta.deletion_timestamp = 5;
  deleting.meta.finalizers = {"machine.cluster.x-k8s.io"};  // kept until the finalizer goes
  h.client.machines().Add(deleting);
  Machine current = h.client.machines().At({kNs, "mp-machine-1"});
  current.meta.generation = 4;
  current.status.conditions = {
      {.type = "UpToDate", .status = "True", .reason = "UpToDate", .observed_generation = 4}};
  h.client.machines().Add(current);
  MachinePool mp = GetMachinePool(3, "mp");
  MachinePoolScope scope{.mp = &mp};
  scope.machines = ListPoolMachines(&h, "mp");
  ASSERT_EQ(scope.machines.size(), 3u);
  Result res;
  ASSERT_TRUE(SetMachinesUpToDate(h.deps, &scope, &res).ok());
  EXPECT_EQ(h.client.machines().calls(fake::Verb::kPatch), 2);  // machine-1 was up to date
  const Condition* gone =
      FindCondition(h.client.machines().At({kNs, "mp-machine-0"}).status.conditions, "UpToDate");
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(gone->status, "False");
  EXPECT_EQ(gone->reason, "NotUpToDate");
  EXPECT_EQ(gone->message, "Machine is being deleted");
  const Condition* fresh =
      FindCondition(h.client.machines().At({kNs, "mp-machine-2"}).status.conditions, "UpToDate");
  ASSERT_NE(fresh, nullptr);
  EXPECT_EQ(fresh->status, "True");
  EXPECT_EQ(fresh->reason, "UpToDate");
  EXPECT_TRUE(fresh->message.empty());
}

}  // namespace
}  // namespace mpsim
