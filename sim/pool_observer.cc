#include "sim/pool_observer.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "sim/list_diff.h"

namespace mpsim {
namespace {

std::string ReplicaString(const std::optional<int32_t>& r) { return r ? std::to_string(*r) : ""; }

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
  }
  if (mp.meta.deletion_timestamp && (old == nullptr || !old->meta.deletion_timestamp)) {
    rec.last_spec_change = Now();
    rec.converged_since.reset();
  }
  DiffNodeRefs(old, mp, &rec, &tracking_[name]);
  UpdateConvergence(mp, &rec);
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
    if (node == nullptr) continue;
    auto seen = t->id_seen.find(std::string_view(node->spec.provider_id));
    if (seen == t->id_seen.end() || seen->second.matched) continue;
    seen->second.matched = true;
    rec->matching_latencies.push_back(Now() - seen->second.first);
  }
  for (std::string_view n : d.gone) {
    rec_->Change(Now(), "MachinePool", mp.meta.name, "nodeRef", std::string(n), "", mp.meta.name);
  }
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
