// MachinePool Machines (docs/reference/capi-core.md §4): getMachinesForMachinePool
// and setMachinesUptoDate of machinepool_controller.go; reconcileMachines,
// createOrUpdateMachines and computeDesiredMachine of
// machinepool_controller_phases.go.
#include <algorithm>
#include <memory>
#include <vector>

#include "controller/capi_names.h"
#include "controller/errors.h"
#include "controller/label_format.h"
#include "controller/machinepool_internal.h"
#include "controller/owner_refs.h"
#include "controller/provider_id.h"
#include "util/flat_view_map.h"
#include "util/string_hash.h"

namespace mpsim {
namespace {

// The labels that select a pool's Machines (getMachinesForMachinePool).
Labels PoolSelector(const MachinePool& mp) {
  static const SharedString kPoolName(capi::kMachinePoolNameLabel);
  static const SharedString kClusterName(capi::kClusterNameLabel);
  return {{kPoolName, SharedString(MustFormatValue(mp.meta.name))},
          {kClusterName, SharedString(mp.spec.cluster_name)}};
}

// computeDesiredMachine (machinepool_controller_phases.go) in two parts: what
// every member's desired Machine shares (the pool's template labels and
// annotations plus the selector, the controller ref), made once per
// reconcile, and ComputeDesiredMachine, which adds the InfraMachine's name and
// reference and the Node's version. Most members are unchanged, and
// ApplyChanges tells so from the shared part without building theirs.
Machine DesiredBase(const MachinePool& mp, const Labels& selector) {
  Machine m;
  m.meta.ns = mp.meta.ns;
  m.meta.owner_references = {MachinePoolControllerRef(mp.meta)};
  m.meta.annotations = mp.spec.template_.annotations;
  m.meta.labels = mp.spec.template_.labels;
  for (const auto& [k, v] : selector) m.meta.labels[k] = v;
  m.spec.cluster_name = mp.spec.cluster_name;
  m.spec.bootstrap.data_secret_name = "";
  m.spec.infrastructure_ref = {.api_version = mp.spec.template_.spec.infrastructure_ref.api_version,
                               .ns = mp.meta.ns};
  return m;
}

// The Node's kubelet version, when it has one.
const std::string* NodeVersion(const Node* node) {
  if (node == nullptr || node->status.node_info.kubelet_version.empty()) return nullptr;
  return &node->status.node_info.kubelet_version.str();
}

Machine ComputeDesiredMachine(const Machine& base, const InfraMachine& im, const Machine* existing,
                              const Node* node) {
  Machine m = base;
  m.meta.name = existing != nullptr ? existing->meta.name : im.meta.name;
  m.spec.infrastructure_ref.kind = im.kind;
  m.spec.infrastructure_ref.name = im.meta.name;
  if (const std::string* v = NodeVersion(node)) m.spec.version = *v;
  return m;
}

// Server-side apply of `desired` onto `existing`: the fields this manager
// sets win, everything else is kept (no field-manager bookkeeping).
Machine MergeApplied(Machine existing, const Machine& desired) {
  for (const OwnerReference& ref : desired.meta.owner_references) {
    EnsureOwnerRef(&existing.meta.owner_references, ref);
  }
  for (const auto& [k, v] : desired.meta.labels) existing.meta.labels[k] = v;
  for (const auto& [k, v] : desired.meta.annotations) existing.meta.annotations[k] = v;
  existing.spec.cluster_name = desired.spec.cluster_name;
  existing.spec.bootstrap.data_secret_name = desired.spec.bootstrap.data_secret_name;
  existing.spec.infrastructure_ref = desired.spec.infrastructure_ref;
  if (desired.spec.version) existing.spec.version = desired.spec.version;
  return existing;
}

// Whether MergeApplied would change `existing` for ComputeDesiredMachine(base,
// im, existing, node): what ssa.WithCachingProxy answers by skipping an
// unchanged request; finding it out copies nothing.
bool ApplyChanges(const Machine& existing, const Machine& base, const InfraMachine& im,
                  const Node* node) {
  const auto& refs = existing.meta.owner_references;
  for (const OwnerReference& ref : base.meta.owner_references) {
    if (std::find(refs.begin(), refs.end(), ref) == refs.end()) return true;
  }
  const MachineSpec &e = existing.spec, &d = base.spec;
  const ObjectReference& ref = e.infrastructure_ref;
  const bool same_ref = BytesEqual(ref.name, im.meta.name) && BytesEqual(ref.kind, im.kind) &&
                        BytesEqual(ref.api_version, d.infrastructure_ref.api_version) &&
                        BytesEqual(ref.ns, d.infrastructure_ref.ns);
  const std::string* version = NodeVersion(node);
  return !existing.meta.labels.Covers(base.meta.labels) ||
         !existing.meta.annotations.Covers(base.meta.annotations) ||
         !BytesEqual(e.cluster_name, d.cluster_name) ||
         e.bootstrap.data_secret_name != d.bootstrap.data_secret_name || !same_ref ||
         (version != nullptr && (!e.version || !BytesEqual(*e.version, *version)));
}

Status ApplyMachine(ObjectClient<Machine>& c, const Machine& existing, const Machine& desired) {
  Machine merged = MergeApplied(existing, desired);
  if (merged == existing) return Status::Ok();  // the SSA cache skips unchanged requests
  return c.Patch(existing, &merged);
}

// SSA create; a Machine made here goes to *created. waitForMachineCreation
// takes no time: the reconcile is atomic in simulated time.
Status CreateMachine(ObjectClient<Machine>& c, Machine desired,
                     std::vector<std::shared_ptr<const Machine>>* created) {
  Status st = c.Create(&desired);
  if (st.ok()) created->push_back(std::make_shared<const Machine>(std::move(desired)));
  if (!st.IsConflict() && st.code() != Status::Code::kAlreadyExists) return st;
  Machine existing;
  st = c.Get(desired.meta.Key(), &existing);
  if (!st.ok()) return st;
  return ApplyMachine(c, existing, desired);
}

// s.nodeRefMap[providerID]: nil for an InfraMachine without one, or a nil map.
const Node* NodeFor(const MachinePoolDeps& d, const MachinePoolScope& s, const InfraMachine& im) {
  if (!s.node_ref_map || !im.spec.provider_id) return nullptr;
  std::optional<std::string_view> key =
      ProviderIDKey(*im.spec.provider_id, d.opts.provider_id_match);
  if (!key) return nullptr;
  auto it = s.node_ref_map->find(*key);
  return it == s.node_ref_map->end() ? nullptr : it->second.get();
}

}  // namespace

// getMachinesForMachinePool (machinepool_controller.go), docs/reference/capi-core.md §1.7.
Status GetMachinesForMachinePool(const MachinePoolDeps& d, MachinePoolScope* s, Result*) {
  const MachinePool& mp = *s->mp;
  s->machines.clear();
  for (const auto& m :
       d.client->Machines().List({.ns = mp.meta.ns, .match_labels = PoolSelector(mp)})) {
    // shouldExcludeMachine: controlled by someone else (metav1.IsControlledBy compares UIDs).
    const OwnerReference* owner = GetControllerOf(m->meta);
    if (owner != nullptr && owner->uid != mp.meta.uid) continue;
    s->machines.push_back(m);
  }
  // waitForMachineCreation held the reconcile until the cache showed the
  // Machines this pass created, so the List above would have had them.
  for (const std::shared_ptr<const Machine>& m : s->created_machines) {
    auto same = [&m](const std::shared_ptr<const Machine>& e) {
      return e->meta.Key() == m->meta.Key();
    };
    if (std::none_of(s->machines.begin(), s->machines.end(), same)) s->machines.push_back(m);
  }
  if (!s->created_machines.empty()) {
    std::sort(s->machines.begin(), s->machines.end(),
              [](const auto& a, const auto& b) { return a->meta.Key() < b->meta.Key(); });
  }
  return Status::Ok();
}

// setMachinesUptoDate (machinepool_controller.go), docs/reference/capi-core.md §1.7.
Status SetMachinesUpToDate(const MachinePoolDeps& d, MachinePoolScope* s, Result*) {
  // The two conditions this sets, made once rather than per Machine; each
  // Machine's observedGeneration is its own.
  static const Condition kUpToDate{.type = capi::kMachineUpToDateCondition,
                                   .status = "True",
                                   .reason = capi::kMachineUpToDateReason};
  static const Condition kDeleting{.type = capi::kMachineUpToDateCondition,
                                   .status = "False",
                                   .reason = capi::kMachineNotUpToDateReason,
                                   .message = "Machine is being deleted"};
  std::vector<Status> errs;
  std::vector<std::shared_ptr<const Machine>>& machines = s->machines;
  for (std::shared_ptr<const Machine>& held : machines) {
    const Machine& m = *held;
    const Condition& want = m.meta.deletion_timestamp ? kDeleting : kUpToDate;
    const Condition* had = FindCondition(m.status.conditions, want.type);
    if (had != nullptr && BytesEqual(had->status, want.status) &&
        BytesEqual(had->reason, want.reason) && BytesEqual(had->message, want.message) &&
        BytesEqual(had->severity, want.severity) && had->observed_generation == m.meta.generation) {
      continue;  // SetCondition would keep it as it is: no copy, no patch
    }
    Condition c = want;
    c.observed_generation = m.meta.generation;
    auto next = std::make_shared<Machine>(m);
    SetCondition(&next->status.conditions, c, d.clock->Now());
    if (*next == m) continue;
    errs.push_back(d.client->Machines().Patch(m, next.get()));
    held = std::move(next);  // the scope sees the condition set, patched or not
  }
  return Aggregate(errs);
}

namespace {

// createOrUpdateMachines (machinepool_controller_phases.go): one Machine per
// InfraMachine, patched if it exists (matched by infrastructureRef name),
// else created; the created ones go to s->created_machines.
Status CreateOrUpdateMachines(
    const MachinePoolDeps& d, MachinePoolScope* s, const Labels& selector,
    const std::vector<std::shared_ptr<const Machine>>& machines,
    const std::vector<std::shared_ptr<const InfraMachine>>& infra_machines) {
  // The keys view the Machines' names, which `machines` keeps alive; a later
  // Machine with the same name wins, as in Go's map assignment.
  FlatViewMap<const Machine*> infra_machine_to_machine;
  for (const auto& m : machines) {
    infra_machine_to_machine.InsertOrAssign(m->spec.infrastructure_ref.name, m.get());
  }
  const Machine base = DesiredBase(*s->mp, selector);
  // Each message is made only for a failure: Aggregate drops the OKs.
  std::vector<Status> errs;
  for (const auto& infra_machine : infra_machines) {
    const InfraMachine& im = *infra_machine;
    const Node* node = NodeFor(d, *s, im);
    auto found = infra_machine_to_machine.find(im.meta.name);
    if (found != infra_machine_to_machine.end()) {
      const Machine& existing = *found->second;
      if (!ApplyChanges(existing, base, im, node)) continue;
      Machine desired = ComputeDesiredMachine(base, im, &existing, node);
      Status st = ApplyMachine(d.client->Machines(), existing, desired);
      if (!st.ok()) {
        errs.push_back(Wrap(st, "failed to update Machine " + desired.meta.Key().String()));
      }
      continue;
    }
    Status st = CreateMachine(d.client->Machines(), ComputeDesiredMachine(base, im, nullptr, node),
                              &s->created_machines);
    if (!st.ok()) {
      errs.push_back(Wrap(st, "failed to create new Machine for infraMachine \"" + im.meta.name +
                                  "\" in namespace \"" + im.meta.ns + "\""));
    }
  }
  return Aggregate(errs);
}

}  // namespace

// reconcileMachines (machinepool_controller_phases.go), docs/reference/capi-core.md §4.
Status ReconcileMachines(const MachinePoolDeps& d, MachinePoolScope* s,
                         const InfraMachinePool& infra) {
  const std::optional<std::string>& kind = infra.status.infrastructure_machine_kind;
  if (!kind || kind->empty()) return Status::Ok();  // MachinePool Machines not supported
  const MachinePool& mp = *s->mp;
  const Labels selector = PoolSelector(mp);
  // The InfraMachines of that kind only, as a List of <kind>List.
  ListOptions<InfraMachine> infra_opts{.ns = mp.meta.ns, .match_labels = selector};
  infra_opts.field = [&kind](const InfraMachine& im) { return BytesEqual(im.kind, *kind); };
  const std::vector<std::shared_ptr<const InfraMachine>> infra_machines =
      d.client->InfraMachines().List(infra_opts);
  // The watch on that kind is declared once in Setup (external.ObjectTracker).
  const std::vector<std::shared_ptr<const Machine>> machines =
      d.client->Machines().List({.ns = mp.meta.ns, .match_labels = selector});
  Status st = CreateOrUpdateMachines(d, s, selector, machines, infra_machines);
  return Wrap(st, "failed to create machines for MachinePool \"" + mp.meta.name +
                      "\" in namespace \"" + mp.meta.ns + "\"");
}

}  // namespace mpsim
