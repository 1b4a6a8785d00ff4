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
NodeRefMap GetNodeRefMap(ObjectClient<Node>* c, ProviderIDMatch match);
struct NodeReferencesResult {
  std::vector<NodeReference> references;
  int available = 0;
  int ready = 0;
};
// The Nodes of the listed providerIDs, in list order; errNoAvailableNodes if
// ids were given but none matched a Node.
Status GetNodeReferences(const ProviderIDList& provider_id_list, int32_t min_ready_seconds,
                         const NodeRefMap& node_refs_map, Time now, ProviderIDMatch match,
                         NodeReferencesResult* out);
// errNoAvailableNodes: ids were given but none matched a Node.
bool IsNoAvailableNodes(const Status& s);
Status PatchNodes(ObjectClient<Node>* c, const std::vector<NodeReference>& references,
                  const MachinePool& mp);
// Deletes Nodes in match-key order (Go iterates its map randomly); the first
// failure stops the pass.
Status DeleteRetiredNodes(ObjectClient<Node>* c, const std::vector<NodeReference>& node_refs,
                          const std::optional<ProviderIDList>& provider_id_list,
                          ProviderIDMatch match);

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
void SetReplicas(MachinePool* mp, bool has_machine_pool_machines,
                 const std::vector<std::shared_ptr<const Machine>>& machines,
                 const std::optional<NodeRefMap>& node_ref_map);

// ---- machinepool_watches.cc ----
std::vector<Request> NodeToMachinePool(Client* c, const Node& node, ProviderIDMatch match);
std::vector<Request> InfraMachineToMachinePoolMapper(Client* c, const InfraMachine& im);
std::vector<Request> ClusterToMachinePools(Client* c, const Cluster& cluster);

}  // namespace mpsim
