// Fixtures shared by the MachinePool controller tests: the objects the upstream
// tests build (builder.Test* kinds, defaultMachinePool, ...) and a harness that
// wires a FakeClient and FakeClock to the reconciler's inner functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "controller/capi_names.h"
#include "controller/machinepool_internal.h"
#include "tests/testing/fake_client.h"

namespace mpsim::fake {

inline constexpr const char* kDefaultNs = "default";
inline constexpr const char* kTestClusterName = "test-cluster";
inline constexpr const char* kBootstrapGroupVersion = "bootstrap.cluster.x-k8s.io/v1beta2";
inline constexpr const char* kInfraGroupVersion = "infrastructure.cluster.x-k8s.io/v1beta2";
inline constexpr const char* kTestBootstrapConfigKind = "TestBootstrapConfig";
inline constexpr const char* kTestInfraMachineTemplateKind = "TestInfrastructureMachineTemplate";
inline constexpr const char* kTestInfraMachinePoolKind = "TestInfrastructureMachinePool";

inline Cluster MakeCluster(const std::string& name, const std::string& ns = kDefaultNs) {
  Cluster c;
  c.meta = {.name = name, .ns = ns};
  return c;
}

inline ObjectReference BootstrapRef(const std::string& name) {
  return {.api_version = kBootstrapGroupVersion, .kind = kTestBootstrapConfigKind, .name = name};
}

inline ObjectReference InfraRef(const std::string& name,
                                const std::string& kind = kTestInfraMachineTemplateKind) {
  return {.api_version = kInfraGroupVersion, .kind = kind, .name = name};
}

// A bootstrap config of a CRD labelled with the v1beta2 contract, status {}.
inline BootstrapConfig MakeBootstrap(const std::string& name, const std::string& ns = kDefaultNs) {
  BootstrapConfig b;
  b.meta = {.name = name, .ns = ns};
  b.contract_version = "v1beta2";
  return b;
}

// status.initialization.dataSecretCreated = created, status.dataSecretName = secret.
inline BootstrapConfig ReadyBootstrap(const std::string& name, const std::string& secret,
                                      bool created = true) {
  BootstrapConfig b = MakeBootstrap(name);
  b.status.data_secret_created = created;
  b.status.data_secret_name = secret;
  return b;
}

inline InfraMachinePool MakeInfra(const std::string& name,
                                  std::optional<std::vector<std::string>> provider_ids,
                                  const std::string& ns = kDefaultNs) {
  InfraMachinePool i;
  i.meta = {.name = name, .ns = ns};
  i.kind = kTestInfraMachineTemplateKind;
  i.spec.provider_id_list = std::move(provider_ids);
  return i;
}

inline Node MakeNode(const std::string& name, const std::string& provider_id,
                     std::optional<std::string> ready_status = std::nullopt,
                     const std::string& uid = "") {
  Node n;
  n.meta = {.uid = uid, .name = name};
  n.spec.provider_id = provider_id;
  if (ready_status) n.status.conditions.push_back({.type = "Ready", .status = *ready_status});
  return n;
}

// The Paused condition a reconcile of an unpaused pool writes.
inline const Condition kNotPaused{.type = "Paused", .status = "False", .reason = "NotPaused"};

inline NodeReference NodeRef(const std::string& name, const std::string& uid = "") {
  return {.name = name, .uid = uid};
}

// machinepool_controller_phases_test.go defaultMachinePool.
inline MachinePool DefaultPhasesMachinePool() {
  MachinePool mp;
  mp.meta = {.name = "machinepool-test", .ns = kDefaultNs};
  mp.spec.cluster_name = kTestClusterName;
  mp.spec.replicas = 1;
  mp.spec.template_.spec.bootstrap.config_ref = BootstrapRef("bootstrap-config1");
  mp.spec.template_.spec.infrastructure_ref = InfraRef("infra-config1");
  return mp;
}

// A FakeClient and FakeClock with the dependencies the inner functions take.
struct Harness {
  explicit Harness(MachinePoolOptions opts = {}) : client(&clock), deps{&client, &clock, opts} {}
  FakeClock clock;
  FakeClient client;
  MachinePoolDeps deps;

  // doReconcile(ctx, scope, reconcileNormalFuncsForTest(r)) on `mp` in memory.
  Status RunNormal(const Cluster& cluster, MachinePool* mp, Result* res,
                   MachinePoolScope* out_scope = nullptr) {
    MachinePoolScope scope{.cluster = cluster, .mp = mp};
    Status s = DoReconcile(deps, &scope, NormalSteps(), res);
    if (out_scope != nullptr) *out_scope = scope;
    return s;
  }
};

inline int32_t V1Beta1Ready(const MachinePool& mp) {
  return mp.status.deprecated && mp.status.deprecated->v1beta1
             ? mp.status.deprecated->v1beta1->ready_replicas
             : 0;
}

}  // namespace mpsim::fake
