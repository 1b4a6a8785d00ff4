// The inner steps of the MachinePool reconcile, one function per upstream
// function, exposed so that the upstream unit tests can call them directly.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/client.h"
#include "api/reconciler.h"
#include "controller/node_ref_map.h"
#include "controller/options.h"

namespace mpsim {

// What every step needs from the reconciler.
struct MachinePoolDeps {
  Client* client = nullptr;
  const Clock* clock = nullptr;
  MachinePoolOptions opts;
};

// machinepool_controller_scope.go: what one reconcile reads and shares.
struct MachinePoolScope {
  Cluster cluster;
  MachinePool* mp = nullptr;  // the object being reconciled, mutated in place
  std::optional<InfraMachinePool> infra_machine_pool;  // set by ReconcileInfrastructure
  std::optional<NodeRefMap> node_ref_map;              // nullopt: Go nil
  // The nodeRefs this reconcile set, or found up to date at its early exit,
  // and the kubelet versions of their Nodes (NodeReferencesResult::versions),
  // so the deferred status update need not read those Nodes again.
  SharedList<NodeReference> set_node_refs;
  std::optional<std::vector<VersionCount>> set_node_ref_versions;
  // MachinePool Machines, as the cache lent them (a pass copies only those it changes).
  std::vector<std::shared_ptr<const Machine>> machines;
  // The Machines reconcileMachines created in this pass (waitForMachineCreation).
  std::vector<std::shared_ptr<const Machine>> created_machines;
  // D1: ReconcileExternal dereferenced a nil pointer; the reconcile unwinds.
  bool panicked = false;
};

// One step of doReconcile: its error is wrapped with `error_prefix`.
using StepFn = Status (*)(const MachinePoolDeps&, MachinePoolScope*, Result*);
struct Step {
  StepFn fn;
  const char* error_prefix;
};

// ---- machinepool_reconcile_steps.cc ----
// [setOwnerAndLabels, bootstrap, infrastructure, getMachines, nodeRefs, upToDate].
std::vector<Step> NormalSteps();
// [setOwnerAndLabels, delete].
std::vector<Step> DeleteSteps();
// Calls every step even after an error; errors aggregate, later results are
// ignored once one failed; otherwise the lowest non-zero result. Stops at once
// when a step panicked (scope->panicked) and returns that step's error.
Status DoReconcile(const MachinePoolDeps& d, MachinePoolScope* s, const std::vector<Step>& steps,
                   Result* result);
// util.LowestNonZeroResult.
Result LowestNonZeroResult(const Result& a, const Result& b);
Status ReconcileSetOwnerAndLabels(const MachinePoolDeps& d, MachinePoolScope* s, Result* r);

// ---- machinepool_phases.cc ----
void ReconcilePhase(MachinePool* mp);
Status ReconcileBootstrap(const MachinePoolDeps& d, MachinePoolScope* s, Result* r);
Status ReconcileInfrastructure(const MachinePoolDeps& d, MachinePoolScope* s, Result* r);

// ---- machinepool_external.cc ----
// reconcileExternal: Get (NotFound wrapped as NotFound), set the controller
// ownerRef and cluster-name label, Patch, then mirror failureReason/Message
// (or panic, D1). The object is returned in *out.
Status ReconcileExternalBootstrap(const MachinePoolDeps& d, MachinePoolScope* s,
                                  const ObjectReference& ref, BootstrapConfig* out);
Status ReconcileExternalInfra(const MachinePoolDeps& d, MachinePoolScope* s,
                              const ObjectReference& ref, InfraMachinePool* out);

// ---- machinepool_noderef.cc ----
Status ReconcileNodeRefs(const MachinePoolDeps& d, MachinePoolScope* s, Result* r);
// Every Node with a usable providerID; for a duplicate key the later Node in
// (namespace, name) list order wins.
NodeRefMap GetNodeRefMap(ObjectClient<Node>* nodes, ProviderIDMatch match);
struct NodeReferencesResult {
  std::vector<NodeReference> references;
  // The cached Node each reference names, as read from the node map: the
  // same object patchNodes would Get from the same cache in this reconcile.
  std::vector<std::shared_ptr<const Node>> nodes;
  // Their kubelet versions, counted by AddVersion as each Node is read for
  // its reference: setReplicas aggregates the same Nodes' versions later in
  // the reconcile, and 100,000 Nodes would each be a cache miss again there.
  std::vector<VersionCount> versions;
  int available = 0;
  int ready = 0;
};
// `previous` (the pool's current nodeRefs) only lends its name strings to
// the references of the same Nodes; the result does not depend on it.
Status GetNodeReferences(const std::vector<SharedString>& provider_ids, int32_t min_ready_seconds,
                         const NodeRefMap& nodes, Time now, ProviderIDMatch match,
                         NodeReferencesResult* out,
                         const std::vector<NodeReference>& previous = {});
// errNoAvailableNodes: ids were given but none matched a Node.
bool IsNoAvailableNodes(const Status& s);
Status PatchNodes(ObjectClient<Node>* nodes, const std::vector<NodeReference>& refs,
                  const MachinePool& mp);
// PatchNodes for Nodes already read from the cache (NodeReferencesResult::nodes).
Status PatchCachedNodes(ObjectClient<Node>* nodes,
                        const std::vector<std::shared_ptr<const Node>>& cached,
                        const MachinePool& mp);
Status DeleteRetiredNodes(ObjectClient<Node>* nodes, const std::vector<NodeReference>& node_refs,
                          const std::optional<ProviderIDList>& provider_ids, ProviderIDMatch match);

// ---- machinepool_delete.cc ----
Status ReconcileDelete(const MachinePoolDeps& d, MachinePoolScope* s, Result* r);
// *ok is true iff neither the bootstrap config nor the infra pool was found;
// every object found is deleted in this pass.
Status ReconcileDeleteExternal(const MachinePoolDeps& d, const MachinePool& mp, bool* ok);

// ---- machinepool_machines.cc ----
Status GetMachinesForMachinePool(const MachinePoolDeps& d, MachinePoolScope* s, Result* r);
Status SetMachinesUpToDate(const MachinePoolDeps& d, MachinePoolScope* s, Result* r);
// Creates or updates one Machine per InfraMachine of the pool's
// status.infrastructureMachineKind (no-op without it).
Status ReconcileMachines(const MachinePoolDeps& d, MachinePoolScope* s,
                         const InfraMachinePool& infra);

// ---- machinepool_status.cc ----
// The deferred updateStatus: SetReplicas unless no infra pool was read.
Status UpdateStatus(MachinePoolScope* s);
Status HasMachinePoolMachines(const MachinePoolScope& s, bool* has);
// `ref_versions`, if given, are the kubelet versions of the Nodes that
// status.nodeRefs names, as NodeReferencesResult::versions counts them.
void SetReplicas(MachinePool* mp, bool has_machine_pool_machines,
                 const std::vector<std::shared_ptr<const Machine>>& machines,
                 const std::optional<NodeRefMap>& nodes,
                 const std::vector<VersionCount>* ref_versions = nullptr);

// ---- machinepool_watches.cc ----
std::vector<Request> NodeToMachinePool(Client* c, const Node& node, ProviderIDMatch match);
std::vector<Request> InfraMachineToMachinePool(Client* c, const InfraMachine& im);
std::vector<Request> ClusterToMachinePools(Client* c, const Cluster& cluster);

}  // namespace mpsim
