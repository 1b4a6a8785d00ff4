// machine_controller.go Reconcile, SetupWithManager and nodeToMachine, and
// reconcileInfrastructure of machine_controller_phases.go, cut to what a
// MachinePool Machine goes through (docs/reference/capi-core.md §4.1).
#include "controller/machine_reconciler.h"

#include <algorithm>
#include <string>

#include "api/indexes.h"
#include "controller/capi_names.h"
#include "controller/errors.h"

namespace mpsim {
namespace {

// externalReadyWait (machine_controller_phases.go).
constexpr Duration kExternalReadyWait = 30 * kSecond;

ObjectKey InfraKey(const Machine& m) {
  const ObjectReference& ref = m.spec.infrastructure_ref;
  return {ref.ns.empty() ? m.meta.ns : ref.ns, ref.name};
}

}  // namespace

void MachineReconciler::Setup(Builder* b) {
  b->WatchMachines(
      [](const WatchEvent<Machine>& e) { return std::vector<Request>{{e.obj.meta.Key()}}; });
  // Core names a MachinePool Machine after its InfraMachine (docs/reference/capi-core.md
  // §4), so the mapping needs no list.
  b->WatchInfraMachines(
      [](const WatchEvent<InfraMachine>& e) { return std::vector<Request>{{e.obj.meta.Key()}}; });
  b->WatchWorkloadNodes([this](const WatchEvent<Node>& e) { return NodeToMachine(e.obj); });
}

Status MachineReconciler::Reconcile(const Request& req, Result* result) {
  Machine m;
  if (Status st = client_->Machines().Get(req.key, &m); !st.ok()) {
    return st.IsNotFound() ? Status::Ok() : st;
  }
  const Machine base = m;
  // EnsureFinalizer: a pass that adds it ends there.
  if (!m.meta.deletion_timestamp && !HasFinalizer(m.meta, capi::kMachineFinalizer)) {
    m.meta.finalizers.push_back(capi::kMachineFinalizer);
    return client_->Machines().Patch(base, &m);
  }
  if (m.meta.deletion_timestamp && !HasFinalizer(m.meta, capi::kMachineFinalizer)) {
    return Status::Ok();
  }
  MachineScope s;
  s.machine = &m;
  Status st = client_->Clusters().Get({m.meta.ns, m.spec.cluster_name}, &s.cluster);
  const bool have_cluster = st.ok();
  if (!have_cluster && !(st.IsNotFound() && m.meta.deletion_timestamp)) {
    return Wrap(st, "failed to get cluster \"" + m.spec.cluster_name + "\" for machine \"" +
                        m.meta.name + "\" in namespace \"" + m.meta.ns + "\"");
  }
  bool release = false;
  Status phase = Status::Ok();
  if (m.meta.deletion_timestamp) {
    phase = ReconcileDelete(&s, result, &release);
  } else {
    phase = ReconcileInfrastructure(&s, result);
    if (phase.ok()) phase = ReconcileNode(&s);
  }
  if (release) {
    std::erase(m.meta.finalizers, std::string(capi::kMachineFinalizer));
    return client_->Machines().Patch(base, &m);
  }
  // The deferred updateStatus and patch.
  if (have_cluster) {
    const Duration available_in = UpdateMachineStatus(&s, clock_->Now());
    if (available_in > 0 && (result->requeue_after == 0 || available_in < result->requeue_after)) {
      result->requeue_after = available_in;
    }
  }
  if (!(m == base)) {
    Status patched = client_->Machines().Patch(base, &m);
    if (phase.ok()) return patched;
  }
  return phase;
}

Status MachineReconciler::ReconcileInfrastructure(MachineScope* s, Result* result) {
  Machine& m = *s->machine;
  InfraMachine im;
  Status st = client_->InfraMachines().Get(InfraKey(m), &im);
  if (st.IsNotFound()) {
    s->infra_machine_is_not_found = true;
    if (m.status.infrastructure_provisioned.value_or(false)) {
      return Status::NotFound("could not find " + m.spec.infrastructure_ref.kind + " " +
                              InfraKey(m).String() + " for Machine " + m.meta.Key().String());
    }
    result->requeue_after = kExternalReadyWait;
    return Status::Ok();
  }
  if (!st.ok()) return st;
  s->infra_machine = im;
  const bool provisioned = im.status.ready.value_or(false);
  if (im.meta.deletion_timestamp) return Status::Ok();
  if (!provisioned && !m.status.infrastructure_provisioned.value_or(false)) return Status::Ok();
  // Upstream defers the next reconcile 5 s while the providerID is unset;
  // the InfraMachine's change brings the reconcile here.
  if (!im.spec.provider_id || im.spec.provider_id->empty()) return Status::Ok();
  m.spec.provider_id = *im.spec.provider_id;
  m.status.infrastructure_provisioned = true;
  return Status::Ok();
}

// nodeToMachine: the Machine whose nodeRef names the Node, else the one with
// its providerID; none unless exactly one matches.
std::vector<Request> MachineReconciler::NodeToMachine(const Node& node) {
  ListOptions<Machine> opts;
  if (auto it = node.meta.annotations.find(capi::kClusterNameAnnotation);
      it != node.meta.annotations.end()) {
    opts.match_labels[SharedString(capi::kClusterNameLabel)] = it->second;
  }
  if (auto it = node.meta.annotations.find(capi::kClusterNamespaceAnnotation);
      it != node.meta.annotations.end()) {
    opts.ns = it->second.str();
  }
  opts.index_field = kMachineNodeNameField;
  opts.index_value = node.meta.name;
  std::vector<std::shared_ptr<const Machine>> found = client_->Machines().List(opts);
  if (found.size() == 1) return {{found[0]->meta.Key()}};
  if (node.spec.provider_id.empty()) return {};
  opts.index_field = kMachineProviderIDField;
  opts.index_value = node.spec.provider_id.str();
  found = client_->Machines().List(opts);
  if (found.size() == 1) return {{found[0]->meta.Key()}};
  return {};
}

}  // namespace mpsim
