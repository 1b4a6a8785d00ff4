// The object kinds the controllers read and write, as plain structs. Field names
// follow the Cluster API v1beta2 types (api/core/v1beta2/machinepool_types.go);
// std::optional stands for a Go pointer or an absent unstructured field, so
// "unset" and "zero" stay distinct where the upstream code distinguishes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/meta.h"
#include "util/prefetch.h"
#include "util/shared_list.h"
#include "util/shared_string.h"

namespace mpsim {

// ---- Cluster (management cluster) ----
struct ClusterSpec {
  bool paused = false;
  bool operator==(const ClusterSpec&) const = default;
};
struct ClusterStatus {
  Conditions conditions;  // v1beta2; ControlPlaneInitialized lives here
  std::string phase;  // written by the Cluster controller only (controller/cluster_reconciler.h)
  bool operator==(const ClusterStatus&) const = default;
};
struct Cluster {
  static constexpr const char* kKind = "Cluster";
  ObjectMeta meta;
  ClusterSpec spec;
  ClusterStatus status;
  bool operator==(const Cluster&) const = default;
};

// ---- MachinePool ----
struct Bootstrap {
  std::optional<ObjectReference> config_ref;
  std::optional<std::string> data_secret_name;
  bool operator==(const Bootstrap&) const = default;
};
struct MachineDeletionSpec {
  std::optional<int32_t> node_deletion_timeout_seconds;
  bool operator==(const MachineDeletionSpec&) const = default;
};
struct MachineSpec {
  std::string cluster_name;
  Bootstrap bootstrap;
  ObjectReference infrastructure_ref;
  std::optional<std::string> version;
  std::optional<int32_t> min_ready_seconds;
  MachineDeletionSpec deletion;
  std::optional<SharedString> provider_id;  // Machine only: the InfraMachine's
  bool operator==(const MachineSpec&) const = default;
};
struct MachineTemplateSpec {
  Labels labels;
  StringMap annotations;
  MachineSpec spec;
  bool operator==(const MachineTemplateSpec&) const = default;
};
// spec.providerIDList of MachinePools and infrastructure pools: its entries
// are shared between the versions of a list, as the list is between copies.
using ProviderIDList = SharedList<SharedString>;
// The order of a providerIDList: its entries as text.
struct IdText {
  const std::string& operator()(const SharedString& id) const { return id.str(); }
};
// Whether the entries strictly increase; known once per list version.
inline bool IdsStrictlySorted(const ProviderIDList& ids) { return ids.StrictlySorted(IdText()); }

struct MachinePoolSpec {
  std::string cluster_name;
  std::optional<int32_t> replicas;
  MachineTemplateSpec template_;
  // nil and empty differ: upstream DeepEqual treats them as different lists.
  std::optional<ProviderIDList> provider_id_list;
  bool operator==(const MachinePoolSpec&) const = default;
};
// The apiVersion and kind every nodeRef carries: one buffer each for the
// whole run, so a 10,000-entry nodeRefs list holds pointers, not strings.
inline const SharedString& NodeRefApiVersion() {
  static const SharedString kV1 = SharedString::Immortal("v1");
  return kV1;
}
inline const SharedString& NodeRefKind() {
  static const SharedString kNode = SharedString::Immortal("Node");
  return kNode;
}
struct NodeReference {
  SharedString api_version = NodeRefApiVersion();
  SharedString kind = NodeRefKind();
  // Shared with the last list's entry for the same Node: a reconcile that
  // rebuilds 10,000 references allocates no name strings (GetNodeReferences).
  SharedString name;
  SharedString uid;  // the Node's own buffer
  bool operator==(const NodeReference&) const = default;
};
// Whether the names strictly increase; known once per list version.
inline bool NamesStrictlySorted(const SharedList<NodeReference>& refs) {
  return refs.StrictlySorted([](const NodeReference& r) -> const std::string& { return r.name; });
}
// The same for a version made from `base` (the last nodeRefs), settling the
// order of names that were neighbours there by their buffers' addresses.
inline bool NamesStrictlySortedFrom(const SharedList<NodeReference>& refs,
                                    const SharedList<NodeReference>& base) {
  return refs.StrictlySortedFrom(
      base, [](const NodeReference& r) -> const std::string& { return r.name; },
      [](const NodeReference& a, const NodeReference& b) {
        return a.name.identity() == b.name.identity();
      });
}
struct VersionCount {
  std::string version;
  int32_t replicas = 0;
  bool operator==(const VersionCount&) const = default;
};
struct MachinePoolInitialization {
  std::optional<bool> infrastructure_provisioned;
  std::optional<bool> bootstrap_data_secret_created;
  bool operator==(const MachinePoolInitialization&) const = default;
};
// status.deprecated.v1beta1: the counters and conditions of the old API.
struct MachinePoolV1Beta1Status {
  Conditions conditions;
  int32_t ready_replicas = 0;
  int32_t available_replicas = 0;
  int32_t unavailable_replicas = 0;
  std::optional<std::string> failure_reason;
  std::optional<std::string> failure_message;
  bool operator==(const MachinePoolV1Beta1Status&) const = default;
};
struct MachinePoolDeprecatedStatus {
  std::optional<MachinePoolV1Beta1Status> v1beta1;
  bool operator==(const MachinePoolDeprecatedStatus&) const = default;
};
struct MachinePoolStatus {
  std::optional<int32_t> replicas;
  std::optional<int32_t> ready_replicas;
  std::optional<int32_t> available_replicas;
  std::optional<int32_t> up_to_date_replicas;
  std::optional<std::vector<VersionCount>> versions;
  std::string phase;
  SharedList<NodeReference> node_refs;
  MachinePoolInitialization initialization;
  Conditions conditions;  // v1beta2; only Paused is set upstream
  int64_t observed_generation = 0;
  std::optional<MachinePoolDeprecatedStatus> deprecated;
  bool operator==(const MachinePoolStatus&) const = default;
};
struct MachinePool {
  static constexpr const char* kKind = "MachinePool";
  ObjectMeta meta;
  MachinePoolSpec spec;
  MachinePoolStatus status;
  bool operator==(const MachinePool&) const = default;
};

// ---- Bootstrap config (a KubeadmConfig stand-in, read as unstructured upstream) ----
struct BootstrapConfigStatus {
  std::optional<bool>
      data_secret_created;    // status.initialization.dataSecretCreated (v1beta2 contract)
  std::optional<bool> ready;  // status.ready (v1beta1 contract)
  std::optional<std::string> data_secret_name;
  std::optional<std::string> failure_reason;
  std::optional<std::string> failure_message;
  Conditions conditions;  // v1beta1-style Ready condition, mirrored by the MP controller
  bool operator==(const BootstrapConfigStatus&) const = default;
};
struct BootstrapConfigSpec {
  // spec.joinConfiguration.discovery.bootstrapToken.token: CABPK rewrites it,
  // and the data secret's content with it, each time it rotates the token.
  std::string join_token;
  bool operator==(const BootstrapConfigSpec&) const = default;
};
struct BootstrapConfig {
  static constexpr const char* kKind = "KubeadmConfig";
  ObjectMeta meta;
  std::string contract_version = "v1beta2";  // the CRD's cluster.x-k8s.io/<contract> label
  BootstrapConfigSpec spec;
  BootstrapConfigStatus status;
  bool operator==(const BootstrapConfig&) const = default;
};

// ---- Secret (the bootstrap data secret CABPK writes) ----
// A core/v1 Secret: its data by key, as text (the bootstrap data is text).
// The providers read the `value` of the one MachinePool.spec.template.spec.
// bootstrap.dataSecretName names (docs/reference/providers.md §0.1).
struct Secret {
  static constexpr const char* kKind = "Secret";
  ObjectMeta meta;
  std::string type;                         // cluster.x-k8s.io/secret
  std::map<std::string, std::string> data;  // "value": the user data; "format": cloud-config
  bool operator==(const Secret&) const = default;
};

// ---- InfraMachinePool (AWSMachinePool, AzureMachinePool, GCPMachinePool, ...) ----
// Only the contract fields are typed; each provider keeps its own spec in
// `provider_spec` (key=value) and its cloud state in its model.
struct InfraMachinePoolSpec {
  std::optional<ProviderIDList> provider_id_list;
  std::map<std::string, std::string> provider_spec;
  bool operator==(const InfraMachinePoolSpec&) const = default;
};
struct InfraMachinePoolStatus {
  std::optional<bool> ready;                       // status.ready (what core reads, D2)
  std::optional<bool> initialization_provisioned;  // status.initialization.provisioned (contract)
  std::optional<int32_t> replicas;
  std::optional<std::string> infrastructure_machine_kind;
  std::optional<std::string> failure_reason;
  std::optional<std::string> failure_message;
  Conditions conditions;
  bool operator==(const InfraMachinePoolStatus&) const = default;
};
struct InfraMachinePool {
  static constexpr const char* kKind = "InfraMachinePool";
  ObjectMeta meta;
  std::string kind;  // the provider's kind, e.g. "AWSMachinePool"
  InfraMachinePoolSpec spec;
  InfraMachinePoolStatus status;
  bool operator==(const InfraMachinePool&) const = default;
};

// ---- Machine and InfraMachine (MachinePool Machines) ----
// A Node's status.nodeInfo, of which the kubelet version is modelled.
struct NodeInfo {
  // Shared: a run has a handful of versions, and 8 bytes keep what every
  // reconcile reads of a Node within 112 bytes (see Node).
  SharedString kubelet_version;
  bool operator==(const NodeInfo&) const = default;
};
struct MachineStatus {
  Conditions conditions;  // v1beta2: Ready, Available, UpToDate
  std::optional<NodeReference> node_ref;
  std::optional<NodeInfo> node_info;  // copied from the Node by reconcileNode
  // status.initialization.infrastructureProvisioned
  std::optional<bool> infrastructure_provisioned;
  bool operator==(const MachineStatus&) const = default;
};
// Marks a Machine to be the first to go when its MachineSet or MachinePool
// scales in (the cluster autoscaler sets it, docs/reference/autoscaler.md §6.6).
inline constexpr const char* kDeleteMachineAnnotation = "cluster.x-k8s.io/delete-machine";
struct Machine {
  static constexpr const char* kKind = "Machine";
  ObjectMeta meta;
  MachineSpec spec;
  MachineStatus status;
  bool operator==(const Machine&) const = default;
};
struct InfraMachineSpec {
  // Shared: a provider copies its instance's (pinned) providerID here, and
  // core looks each one up among the Nodes' on every reconcile, where the
  // same buffer compares by address.
  std::optional<SharedString> provider_id;
  bool operator==(const InfraMachineSpec&) const = default;
};
struct InfraMachineStatus {
  std::optional<bool> ready;
  bool operator==(const InfraMachineStatus&) const = default;
};
struct InfraMachine {
  static constexpr const char* kKind = "InfraMachine";
  ObjectMeta meta;
  std::string kind;  // e.g. "AzureMachinePoolMachine"
  InfraMachineSpec spec;
  InfraMachineStatus status;
  bool operator==(const InfraMachine&) const = default;
};

// ---- Node (workload cluster) ----
struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, PreferNoSchedule, NoExecute
  bool operator==(const Taint&) const = default;
};
struct NodeSpec {
  std::vector<Taint> taints;
  // Empty until the kubelet or the CCM sets it. Shared with the cloud's own
  // copy, so matching it against a providerIDList entry reads one buffer.
  // Last: it opens the Node's hot line (see Node).
  SharedString provider_id;
  bool operator==(const NodeSpec&) const = default;
};
struct NodeStatus {
  Conditions conditions;  // type "Ready"
  NodeInfo node_info;
  bool operator==(const NodeStatus&) const = default;
};
// spec and status come before meta, unlike the API's order: what every
// MachinePool reconcile reads of each Node (providerID, conditions, kubelet
// version, then meta's uid and annotations) is then 64 bytes side by side
// from kNodeHotLineAt, at most two cache lines; only patchNodes' look at the
// taints reads before them.
struct Node {
  static constexpr const char* kKind = "Node";
  NodeSpec spec;
  NodeStatus status;
  ObjectMeta meta;
  bool operator==(const Node&) const = default;
};
// Where in a Node its hot bytes begin: at spec.provider_id, after the taints.
inline constexpr std::size_t kNodeHotLineAt = sizeof(std::vector<Taint>);

// For batched reads (util/object_lines.h, util/batched_find.h, ObjectBatch).
// A nodeRef is looked up by its name. Of a Node it reads, a MachinePool
// reconcile reads the hot line, then the conditions (Ready is the last of the
// kubelet's four), the buffers of the name and uid that a nodeRef shares and
// of the providerID, the annotations and the taints.
inline void PrefetchHotLines(const NodeReference& ref) { ref.name.Prefetch(); }
inline void PrefetchObjectLines(const Node* node) {
  PrefetchRead(reinterpret_cast<const char*>(node) + kNodeHotLineAt);
}
inline void PrefetchHotLines(const Node& node) {
  for (const Condition& c : node.status.conditions) PrefetchRead(&c.type);
  node.meta.name.Prefetch();
  node.meta.uid.PrefetchForCopy();
  node.spec.provider_id.Prefetch();
  if (!node.meta.annotations.empty()) PrefetchRead(&*node.meta.annotations.begin());
  PrefetchRead(&node.spec.taints);  // the line before the hot line
}

}  // namespace mpsim
