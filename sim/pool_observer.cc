#include "sim/pool_observer.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "sim/list_diff.h"

namespace mpsim {
namespace {

std::string ReplicaString(const std::optional<int32_t>& r) { return r ? std::to_string(*r) : ""; }

std::string VersionOf(const MachinePool& mp) { return mp.spec.template_.spec.version.value_or(""); }

}  // namespace

PoolObserver::PoolObserver(ApiServer* mgmt, ApiServer* workload, Recorder* rec)
    : mgmt_(mgmt), workload_(workload), rec_(rec) {
  using PoolType = WatchEvent<MachinePool>::Type;
  mgmt_->Store<MachinePool>().Watch([this](PoolType t,
                                           const std::shared_ptr<const MachinePool>& old,
                                           const std::shared_ptr<const MachinePool>& obj) {
    OnPool(old.get(), *obj, t == PoolType::kDeleted);
  });
  mgmt_->Store<InfraMachinePool>().Watch(
      [this](auto, const std::shared_ptr<const InfraMachinePool>& old,
             const std::shared_ptr<const InfraMachinePool>& obj) { OnInfra(old.get(), *obj); });
  mgmt_->Store<Machine>().Watch(
      [this](auto t, const std::shared_ptr<const Machine>& old,
             const std::shared_ptr<const Machine>& obj) { OnMachine(t, old.get(), *obj); });
  using NodeType = WatchEvent<Node>::Type;
  workload_->Store<Node>().Watch(
      [this](NodeType t, const auto&, const std::shared_ptr<const Node>& obj) {
        OnNode(*obj, t == NodeType::kDeleted);
      });
}

// MachinePool Machines: created, deletion requested, gone. The pool is the
// one named by the cluster.x-k8s.io/pool-name label.
void PoolObserver::OnMachine(WatchEvent<Machine>::Type t, const Machine* old, const Machine& m) {
  auto label = m.meta.labels.find("cluster.x-k8s.io/pool-name");
  const std::string pool = label == m.meta.labels.end() ? "" : label->second;
  using Type = WatchEvent<Machine>::Type;
  if (t == Type::kAdded) {
    rec_->Change(Now(), "Machine", m.meta.name, "created", "false", "true", pool);
  } else if (t == Type::kDeleted) {
    rec_->Change(Now(), "Machine", m.meta.name, "deleted", "false", "true", pool);
  } else if (m.meta.deletion_timestamp && (old == nullptr || !old->meta.deletion_timestamp)) {
    rec_->Change(Now(), "Machine", m.meta.name, "deleting", "false", "true", pool);
  }
}

void PoolObserver::Track(const std::string& pool, const std::string& infra_name,
                         const std::string& provider) {
  pools_[pool].name = pool;
  pools_[pool].provider = provider;
  infra_to_pool_[infra_name] = pool;
}

void PoolObserver::OnPool(const MachinePool* old, const MachinePool& mp, bool deleted) {
  auto it = pools_.find(mp.meta.name);
  if (it == pools_.end()) return;
  PoolRecord& rec = it->second;
  const std::string& name = mp.meta.name;
  if (deleted) {
    rec.deleted = true;
    rec_->Change(Now(), "MachinePool", name, "deleted", "false", "true", name);
    rec.converged_since = Now();
    return;
  }
  std::string old_phase = old ? old->status.phase : "";
  if (mp.status.phase != old_phase && !mp.status.phase.empty()) {
    rec.phases.emplace_back(mp.status.phase, Now());
    rec_->Change(Now(), "MachinePool", name, "phase", old_phase, mp.status.phase, name);
  }
  if (old == nullptr || old->spec.replicas != mp.spec.replicas ||
      old->spec.template_.spec.version != mp.spec.template_.spec.version) {
    rec.last_spec_change = Now();
    rec.converged_since.reset();
    rec_->Change(Now(), "MachinePool", name, "spec.replicas",
                 old ? ReplicaString(old->spec.replicas) : "", ReplicaString(mp.spec.replicas),
                 name);
    rec_->Change(Now(), "MachinePool", name, "spec.version", old ? VersionOf(*old) : "",
                 VersionOf(mp), name);
  }
  if (mp.meta.deletion_timestamp && (old == nullptr || !old->meta.deletion_timestamp)) {
    rec.last_spec_change = Now();
    rec.converged_since.reset();
  }
  Tracking& t = tracking_[name];
  DiffNodeRefs(old, mp, &rec, &t);
  SetDesiredVersion(VersionOf(mp), &t);
  ShowUpToDate(name, t, &rec);
  UpdateConvergence(mp, &rec);
}

// A Node (re-)registered with another version, or deleted while a pool
// still names it, changes that pool's count.
void PoolObserver::OnNode(const Node& node, bool deleted) {
  auto it = referenced_.find(std::string_view(node.meta.name));
  if (it == referenced_.end()) return;
  Referenced& r = it->second;
  static const SharedString kNone;
  const SharedString& version = deleted ? kNone : node.status.node_info.kubelet_version;
  if (r.exists == !deleted && r.version == version) return;
  Tracking& t = tracking_[r.pool];
  t.up_to_date -= UpToDate(r, t);
  r.exists = !deleted;
  r.version = version;
  t.up_to_date += UpToDate(r, t);
  auto pool = pools_.find(r.pool);
  if (pool != pools_.end()) ShowUpToDate(r.pool, t, &pool->second);
}

void PoolObserver::Reference(const std::string& pool, std::string_view node_name, const Node* node,
                             Tracking* t) {
  Unreference(node_name);  // a stale entry, should a name be listed by two pools
  Referenced r{.pool = pool, .exists = node != nullptr};
  if (node != nullptr) r.version = node->status.node_info.kubelet_version;
  t->up_to_date += UpToDate(r, *t);
  referenced_.emplace(std::string(node_name), std::move(r));
}

void PoolObserver::Unreference(std::string_view node_name) {
  auto it = referenced_.find(node_name);
  if (it == referenced_.end()) return;
  tracking_[it->second.pool].up_to_date -= UpToDate(it->second, tracking_[it->second.pool]);
  referenced_.erase(it);
}

// O(nodeRefs) on a version change only; every other change is counted as it comes.
void PoolObserver::SetDesiredVersion(const std::string& version, Tracking* t) {
  if (t->version == version) return;
  t->version = version;
  t->up_to_date = 0;
  for (const NodeReference& ref : t->refs) {
    auto it = referenced_.find(std::string_view(ref.name.str()));
    if (it != referenced_.end()) t->up_to_date += UpToDate(it->second, *t);
  }
}

void PoolObserver::ShowUpToDate(const std::string& pool, const Tracking& t, PoolRecord* rec) {
  rec_->Change(Now(), "MachinePool", pool, "upToDateReplicas", std::to_string(rec->up_to_date),
               std::to_string(t.up_to_date), pool);
  rec->up_to_date = t.up_to_date;
}

void PoolObserver::DiffNodeRefs(const MachinePool* old, const MachinePool& mp, PoolRecord* rec,
                                Tracking* t) {
  // The store reports every write with the object it replaced, so old->new
  // is exactly what changed since the last call.
  static const SharedList<NodeReference> kNone;
  const SharedList<NodeReference>& before = old ? old->status.node_refs : kNone;
  if (old && before == mp.status.node_refs) return;
  const std::shared_ptr<const ListDiff> diff = DiffNodeRefNames(before, mp.status.node_refs);
  const ListDiff& d = *diff;
  t->refs = mp.status.node_refs;
  for (std::string_view n : d.added) {
    rec_->Change(Now(), "MachinePool", mp.meta.name, "nodeRef", "", std::string(n), mp.meta.name);
    std::shared_ptr<const Node> node = workload_->Store<Node>().Find({"", n});
    Reference(mp.meta.name, n, node.get(), t);
    if (node == nullptr) continue;
    auto seen = t->id_seen.find(std::string_view(node->spec.provider_id));
    if (seen == t->id_seen.end() || seen->second.matched) continue;
    seen->second.matched = true;
    rec->matching_latencies.push_back(Now() - seen->second.first);
  }
  for (std::string_view n : d.gone) {
    rec_->Change(Now(), "MachinePool", mp.meta.name, "nodeRef", std::string(n), "", mp.meta.name);
    Unreference(n);
  }
}

// The v1beta2 counters count Machines only in a pool with MachinePool
// Machines (docs/reference/capi-core.md §1.10); elsewhere they copy
// status.replicas, which other rows show.
void PoolObserver::RecordMachineCounters(const MachinePool& mp, PoolRecord* rec) {
  const ObjectReference& ref = mp.spec.template_.spec.infrastructure_ref;
  std::shared_ptr<const InfraMachinePool> infra =
      mgmt_->Store<InfraMachinePool>().Find({ref.ns.empty() ? mp.meta.ns : ref.ns, ref.name});
  if (infra == nullptr || infra->status.infrastructure_machine_kind.value_or("").empty()) return;
  const int32_t ready = mp.status.ready_replicas.value_or(0);
  const int32_t available = mp.status.available_replicas.value_or(0);
  rec_->Change(Now(), "MachinePool", mp.meta.name, "status.readyReplicas",
               std::to_string(rec->machines_ready), std::to_string(ready), mp.meta.name);
  rec_->Change(Now(), "MachinePool", mp.meta.name, "status.availableReplicas",
               std::to_string(rec->machines_available), std::to_string(available), mp.meta.name);
  rec->machines_ready = ready;
  rec->machines_available = available;
}

// DESIGN.md: converged when ready and available equal the desired count,
// every node runs the desired version, and the phase is Running.
void PoolObserver::UpdateConvergence(const MachinePool& mp, PoolRecord* rec) {
  rec->desired = mp.spec.replicas.value_or(1);
  rec->version = mp.spec.template_.spec.version.value_or("");
  const auto& v1 = mp.status.deprecated ? mp.status.deprecated->v1beta1 : std::nullopt;
  const int32_t ready = v1 ? v1->ready_replicas : 0;
  const int32_t available = v1 ? v1->available_replicas : 0;
  // Timeline rows let expectations ask "N ready at time T" after the run.
  rec_->Change(Now(), "MachinePool", mp.meta.name, "readyReplicas", std::to_string(rec->ready),
               std::to_string(ready), mp.meta.name);
  rec_->Change(Now(), "MachinePool", mp.meta.name, "availableReplicas",
               std::to_string(rec->available), std::to_string(available), mp.meta.name);
  rec->ready = ready;
  rec->available = available;
  RecordMachineCounters(mp, rec);
  rec->phase = mp.status.phase;
  rec->node_refs = static_cast<int32_t>(mp.status.node_refs.size());
  bool versions_ok = true;
  rec->stale_versions.clear();
  if (mp.status.versions) {
    for (const VersionCount& vc : *mp.status.versions) {
      if (vc.version == rec->version) continue;
      versions_ok = false;
      rec->stale_versions += (rec->stale_versions.empty() ? "" : ", ") +
                             std::to_string(vc.replicas) + " on " + vc.version;
    }
  } else {
    versions_ok = rec->desired == 0;
  }
  bool ok = !mp.meta.deletion_timestamp && rec->ready == rec->desired &&
            rec->available == rec->desired && versions_ok && rec->phase == "Running";
  if (!ok) {
    rec->converged_since.reset();
  } else if (!rec->converged_since) {
    rec->converged_since = Now();
  }
}

void PoolObserver::OnInfra(const InfraMachinePool* old, const InfraMachinePool& imp) {
  auto pit = infra_to_pool_.find(imp.meta.name);
  if (pit == infra_to_pool_.end()) return;
  Tracking& t = tracking_[pit->second];
  // Most writes leave the list as it was (status only): skip the diff.
  if (old && old->spec.provider_id_list == imp.spec.provider_id_list) return;
  auto entries = [](const std::optional<ProviderIDList>& l) {
    std::vector<const SharedString*> out;
    if (!l) return out;
    out.reserve(l->size());
    for (const SharedString& id : *l) out.push_back(&id);
    return out;
  };
  const std::vector<const SharedString*> before =
      old ? entries(old->spec.provider_id_list) : std::vector<const SharedString*>{};
  const std::vector<const SharedString*> after = entries(imp.spec.provider_id_list);
  auto sorted = [](const std::optional<ProviderIDList>& l) { return !l || IdsStrictlySorted(*l); };
  const KnownOrder known{.before_sorted = !old || sorted(old->spec.provider_id_list),
                         .after_sorted = sorted(imp.spec.provider_id_list)};
  const ListDiff d = DiffShared(before, after, known);
  t.infra_ids = imp.spec.provider_id_list;
  for (std::string_view id : d.added) {
    t.id_seen.try_emplace(std::string(id), IdSeen{.first = Now()});
    rec_->Change(Now(), "InfraMachinePool", imp.meta.name, "providerIDList", "", std::string(id),
                 pit->second);
  }
  for (std::string_view id : d.gone) {
    rec_->Change(Now(), "InfraMachinePool", imp.meta.name, "providerIDList", std::string(id), "",
                 pit->second);
  }
}

void PoolObserver::Finish() {
  for (auto& [name, rec] : pools_) {
    Tracking& t = tracking_[name];
    std::set<std::string_view> referenced_ids;
    for (const NodeReference& r : t.refs) {
      std::shared_ptr<const Node> node = workload_->Store<Node>().Find({"", r.name});
      if (node != nullptr) referenced_ids.insert(node->spec.provider_id);
    }
    // In providerID order, each once, as the timeline's list diffs have them.
    std::set<std::string_view> listed;
    if (t.infra_ids) listed.insert(t.infra_ids->begin(), t.infra_ids->end());
    rec.unmatched_ids.clear();
    for (std::string_view id : listed) {
      if (!referenced_ids.count(id)) rec.unmatched_ids.emplace_back(id);
    }
  }
}

}  // namespace mpsim
