// MachinePool Machines (capi-core.md §4): listing them, creating or updating
// one Machine per InfraMachine, and setMachinesUptoDate.
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
#include "util/prefetch.h"
#include "util/string_hash.h"

namespace mpsim {
namespace {

// Interned keys and pinned values: every Machine made from the selector
// shares their buffers, so the next List's label match, and the check that a
// Machine still carries them, compare addresses.
Labels PoolSelector(const MachinePool& mp) {
  static const SharedString kPoolName = SharedString::Interned(capi::kMachinePoolNameLabel);
  static const SharedString kClusterName = SharedString::Interned(capi::kClusterNameLabel);
  return {{kPoolName, SharedString::Pinned(MustFormatValue(mp.meta.name))},
          {kClusterName, SharedString::Pinned(mp.spec.cluster_name)}};
}

// computeDesiredMachine: named after the InfraMachine, controlled by the pool,
// template labels/annotations plus the pool selector, version from the Node.
// What every member's desired Machine shares is made once per reconcile
// (`base`, from DesiredBase); DesiredFor adds the member's own fields. A
// reconcile visits every member, and building each one's labels, annotations
// and references only to find them unchanged was most of its cost.
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

Machine DesiredFor(const Machine& base, const InfraMachine& im, const Node* node) {
  Machine m = base;
  m.meta.name = im.meta.name;
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

// Whether MergeApplied would change `existing` for DesiredFor(base, im,
// node): the usual answer is no, and finding it out copies nothing.
bool ApplyChanges(const Machine& existing, const Machine& base, const InfraMachine& im,
                  const Node* node) {
  const auto& refs = existing.meta.owner_references;
  for (const OwnerReference& ref : base.meta.owner_references) {
    if (std::find(refs.begin(), refs.end(), ref) == refs.end()) return true;
  }
  auto covers = [](const auto& have, const auto& want) {
    for (const auto& [k, v] : want) {
      auto it = have.FindShared(k);  // the keys are interned: found by address
      if (it == have.end() || it->second != v) return false;
    }
    return true;
  };
  const MachineSpec &e = existing.spec, &d = base.spec;
  const ObjectReference& ref = e.infrastructure_ref;
  const bool same_ref = BytesEqual(ref.name, im.meta.name) && BytesEqual(ref.kind, im.kind) &&
                        BytesEqual(ref.api_version, d.infrastructure_ref.api_version) &&
                        BytesEqual(ref.ns, d.infrastructure_ref.ns);
  const std::string* version = NodeVersion(node);
  return !covers(existing.meta.labels, base.meta.labels) ||
         !covers(existing.meta.annotations, base.meta.annotations) ||
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

const Node* NodeFor(const MachinePoolDeps& d, const MachinePoolScope& s, const InfraMachine& im) {
  if (!s.node_ref_map || !im.spec.provider_id) return nullptr;
  const SharedString& id = *im.spec.provider_id;
  std::optional<std::string_view> key = ProviderIDKey(id, d.opts.provider_id_match);
  if (!key) return nullptr;
  // A key that is the whole providerID has the hash its buffer keeps; the
  // provider's copy is usually the Node's very buffer, matched by address.
  const uint64_t hash = key->size() == id.size() ? id.Hash() : NodeRefMap::Hash(*key);
  auto it = s.node_ref_map->find(*key, hash);
  return it == s.node_ref_map->end() ? nullptr : it->second.get();
}

}  // namespace

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
  for (size_t i = 0; i < machines.size(); ++i) {
    // Each Machine's status line, then its conditions, load ahead of the
    // visit: the second load needs the first.
    if (i + 2 * kPrefetchAhead < machines.size()) {
      PrefetchRead(&machines[i + 2 * kPrefetchAhead]->status.conditions);
    }
    if (i + kPrefetchAhead < machines.size()) {
      PrefetchRead(machines[i + kPrefetchAhead]->status.conditions.data());
    }
    std::shared_ptr<const Machine>& held = machines[i];
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

// One listed InfraMachine of the pool's kind, with the Machine whose
// infrastructureRef names it (nullptr: none yet) and its Node.
struct Member {
  const InfraMachine* im = nullptr;
  const Machine* machine = nullptr;
  const Node* node = nullptr;
};

// createOrUpdateMachines' infraMachineToMachine: a later Machine with the
// same infrastructureRef name wins, as in Go's map assignment. The names are
// hashed first so that each insert can load its slot a few steps ahead: a
// reconcile visits every Machine, and the visits' misses then overlap.
FlatViewMap<const Machine*> ByInfraName(const std::vector<std::shared_ptr<const Machine>>& ms) {
  const size_t n = ms.size();
  std::vector<uint64_t> hashes(n);
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) PrefetchRead(&ms[i + kPrefetchAhead]->spec.infrastructure_ref.name);
    hashes[i] = FlatViewMap<const Machine*>::Hash(ms[i]->spec.infrastructure_ref.name);
  }
  FlatViewMap<const Machine*> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) out.Prefetch(hashes[i + kPrefetchAhead]);
    out.InsertOrAssign(ms[i]->spec.infrastructure_ref.name, ms[i].get(), hashes[i]);
  }
  return out;
}

// The members in list order, each one's lookups started a few steps before
// they are read, as ByInfraName does.
std::vector<Member> MatchMembers(const MachinePoolDeps& d, const MachinePoolScope& s,
                                 const std::vector<std::shared_ptr<const InfraMachine>>& ims,
                                 const std::string& kind,
                                 const FlatViewMap<const Machine*>& by_infra_name) {
  std::vector<Member> members;
  std::vector<uint64_t> hashes;
  members.reserve(ims.size());
  hashes.reserve(ims.size());
  for (size_t i = 0; i < ims.size(); ++i) {
    if (i + kPrefetchAhead < ims.size()) PrefetchRead(&ims[i + kPrefetchAhead]->kind);
    const InfraMachine& im = *ims[i];
    if (!BytesEqual(im.kind, kind)) continue;
    members.push_back({.im = &im, .node = NodeFor(d, s, im)});
    hashes.push_back(FlatViewMap<const Machine*>::Hash(im.meta.name));
  }
  for (size_t i = 0; i < members.size(); ++i) {
    if (i + kPrefetchAhead < members.size()) by_infra_name.Prefetch(hashes[i + kPrefetchAhead]);
    auto it = by_infra_name.find(members[i].im->meta.name, hashes[i]);
    if (it != by_infra_name.end()) members[i].machine = it->second;
  }
  return members;
}

}  // namespace

Status ReconcileMachines(const MachinePoolDeps& d, MachinePoolScope* s,
                         const InfraMachinePool& infra) {
  const std::optional<std::string>& kind = infra.status.infrastructure_machine_kind;
  if (!kind || kind->empty()) return Status::Ok();  // MachinePool Machines not supported
  const MachinePool& mp = *s->mp;
  const Labels selector = PoolSelector(mp);
  const Machine base = DesiredBase(mp, selector);
  // The map's keys view the listed Machines' names, which `machines` keeps alive.
  const std::vector<std::shared_ptr<const Machine>> machines =
      d.client->Machines().List({.ns = mp.meta.ns, .match_labels = selector});
  const FlatViewMap<const Machine*> by_infra_name = ByInfraName(machines);
  const std::vector<std::shared_ptr<const InfraMachine>> ims =
      d.client->InfraMachines().List({.ns = mp.meta.ns, .match_labels = selector});
  const std::vector<Member> members = MatchMembers(d, *s, ims, *kind, by_infra_name);
  // Only the failures, each message made only then: Aggregate drops the OKs,
  // and a member's message was built on every reconcile for nothing.
  std::vector<Status> errs;
  for (size_t i = 0; i < members.size(); ++i) {
    if (i + kPrefetchAhead < members.size() && members[i + kPrefetchAhead].machine != nullptr) {
      // The owner references ApplyChanges reads first.
      PrefetchRead(members[i + kPrefetchAhead].machine->meta.owner_references.data());
    }
    const InfraMachine& im = *members[i].im;
    const Node* node = members[i].node;
    if (members[i].machine != nullptr) {
      const Machine& m = *members[i].machine;
      if (!ApplyChanges(m, base, im, node)) continue;
      Machine desired = DesiredFor(base, im, node);
      desired.meta.name = m.meta.name;
      Status st = ApplyMachine(d.client->Machines(), m, desired);
      if (!st.ok()) {
        errs.push_back(Wrap(st, "failed to update Machine " + desired.meta.Key().String()));
      }
      continue;
    }
    Status st =
        CreateMachine(d.client->Machines(), DesiredFor(base, im, node), &s->created_machines);
    if (!st.ok()) {
      errs.push_back(Wrap(st, "failed to create new Machine for infraMachine \"" + im.meta.name +
                                  "\" in namespace \"" + im.meta.ns + "\""));
    }
  }
  return Wrap(Aggregate(errs), "failed to create machines for MachinePool \"" + mp.meta.name +
                                   "\" in namespace \"" + mp.meta.ns + "\"");
}

}  // namespace mpsim
