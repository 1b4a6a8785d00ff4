#include "sim/merge_patch.h"

#include <algorithm>

namespace mpsim {
namespace {

template <class F>
void Merge(const F& base, const F& mine, F* cur) {
  if (!(base == mine)) *cur = mine;
}

// JSON merge patch semantics for maps: keys the writer removed are removed,
// keys it added or changed are set, the rest are left as the server has them.
void Merge(const StringMap& base, const StringMap& mine, StringMap* cur) {
  if (base == mine) return;
  for (const auto& [k, v] : base) {
    if (!mine.count(k)) cur->erase(k);
  }
  for (const auto& [k, v] : mine) {
    auto b = base.find(k);
    if (b == base.end() || b->second != v) (*cur)[k] = v;
  }
}

const Condition* Find(const Conditions& cs, const std::string& type) {
  auto it = std::find_if(cs.begin(), cs.end(), [&](const Condition& c) { return c.type == type; });
  return it == cs.end() ? nullptr : &*it;
}

// util/conditions patch: per condition type, the writer's change wins.
void Merge(const Conditions& base, const Conditions& mine, Conditions* cur) {
  if (base == mine) return;
  for (const Condition& b : base) {
    if (Find(mine, b.type) == nullptr) {
      std::erase_if(*cur, [&](const Condition& c) { return c.type == b.type; });
    }
  }
  for (const Condition& m : mine) {
    const Condition* b = Find(base, m.type);
    if (b != nullptr && *b == m) continue;
    auto it = std::find_if(cur->begin(), cur->end(),
                           [&](const Condition& c) { return c.type == m.type; });
    if (it == cur->end()) {
      cur->push_back(m);
    } else {
      *it = m;
    }
  }
}

void MergeMeta(const ObjectMeta& base, const ObjectMeta& mine, ObjectMeta* cur) {
  Merge(base.labels, mine.labels, &cur->labels);
  Merge(base.annotations, mine.annotations, &cur->annotations);
  Merge(base.owner_references, mine.owner_references, &cur->owner_references);
  Merge(base.finalizers, mine.finalizers, &cur->finalizers);
}

}  // namespace

void ApplyMergePatch(const Cluster& base, const Cluster& mine, Cluster* cur) {
  MergeMeta(base.meta, mine.meta, &cur->meta);
  Merge(base.spec, mine.spec, &cur->spec);
  Merge(base.status.conditions, mine.status.conditions, &cur->status.conditions);
  Merge(base.status.phase, mine.status.phase, &cur->status.phase);
}

void ApplyMergePatch(const MachinePool& base, const MachinePool& mine, MachinePool* cur) {
  MergeMeta(base.meta, mine.meta, &cur->meta);
  const MachinePoolSpec &bs = base.spec, &ms = mine.spec;
  Merge(bs.cluster_name, ms.cluster_name, &cur->spec.cluster_name);
  Merge(bs.replicas, ms.replicas, &cur->spec.replicas);
  Merge(bs.template_, ms.template_, &cur->spec.template_);
  Merge(bs.provider_id_list, ms.provider_id_list, &cur->spec.provider_id_list);
  const MachinePoolStatus &b = base.status, &m = mine.status;
  MachinePoolStatus* c = &cur->status;
  Merge(b.replicas, m.replicas, &c->replicas);
  Merge(b.ready_replicas, m.ready_replicas, &c->ready_replicas);
  Merge(b.available_replicas, m.available_replicas, &c->available_replicas);
  Merge(b.up_to_date_replicas, m.up_to_date_replicas, &c->up_to_date_replicas);
  Merge(b.versions, m.versions, &c->versions);
  Merge(b.phase, m.phase, &c->phase);
  Merge(b.node_refs, m.node_refs, &c->node_refs);
  Merge(b.initialization, m.initialization, &c->initialization);
  Merge(b.conditions, m.conditions, &c->conditions);
  Merge(b.observed_generation, m.observed_generation, &c->observed_generation);
  Merge(b.deprecated, m.deprecated, &c->deprecated);
}

void ApplyMergePatch(const BootstrapConfig& base, const BootstrapConfig& mine,
                     BootstrapConfig* cur) {
  MergeMeta(base.meta, mine.meta, &cur->meta);
  Merge(base.contract_version, mine.contract_version, &cur->contract_version);
  Merge(base.spec.join_token, mine.spec.join_token, &cur->spec.join_token);
  const BootstrapConfigStatus &b = base.status, &m = mine.status;
  BootstrapConfigStatus* c = &cur->status;
  Merge(b.data_secret_created, m.data_secret_created, &c->data_secret_created);
  Merge(b.ready, m.ready, &c->ready);
  Merge(b.data_secret_name, m.data_secret_name, &c->data_secret_name);
  Merge(b.failure_reason, m.failure_reason, &c->failure_reason);
  Merge(b.failure_message, m.failure_message, &c->failure_message);
  Merge(b.conditions, m.conditions, &c->conditions);
}

void ApplyMergePatch(const InfraMachinePool& base, const InfraMachinePool& mine,
                     InfraMachinePool* cur) {
  MergeMeta(base.meta, mine.meta, &cur->meta);
  Merge(base.kind, mine.kind, &cur->kind);
  Merge(base.spec.provider_id_list, mine.spec.provider_id_list, &cur->spec.provider_id_list);
  Merge(base.spec.provider_spec, mine.spec.provider_spec, &cur->spec.provider_spec);
  const InfraMachinePoolStatus &b = base.status, &m = mine.status;
  InfraMachinePoolStatus* c = &cur->status;
  Merge(b.ready, m.ready, &c->ready);
  Merge(b.initialization_provisioned, m.initialization_provisioned, &c->initialization_provisioned);
  Merge(b.replicas, m.replicas, &c->replicas);
  Merge(b.infrastructure_machine_kind, m.infrastructure_machine_kind,
        &c->infrastructure_machine_kind);
  Merge(b.failure_reason, m.failure_reason, &c->failure_reason);
  Merge(b.failure_message, m.failure_message, &c->failure_message);
  Merge(b.conditions, m.conditions, &c->conditions);
}

void ApplyMergePatch(const Machine& base, const Machine& mine, Machine* cur) {
  MergeMeta(base.meta, mine.meta, &cur->meta);
  Merge(base.spec, mine.spec, &cur->spec);
  Merge(base.status.conditions, mine.status.conditions, &cur->status.conditions);
  Merge(base.status.node_ref, mine.status.node_ref, &cur->status.node_ref);
  Merge(base.status.node_info, mine.status.node_info, &cur->status.node_info);
  Merge(base.status.infrastructure_provisioned, mine.status.infrastructure_provisioned,
        &cur->status.infrastructure_provisioned);
}

void ApplyMergePatch(const InfraMachine& base, const InfraMachine& mine, InfraMachine* cur) {
  MergeMeta(base.meta, mine.meta, &cur->meta);
  Merge(base.kind, mine.kind, &cur->kind);
  Merge(base.spec, mine.spec, &cur->spec);
  Merge(base.status, mine.status, &cur->status);
}

void ApplyMergePatch(const Secret& base, const Secret& mine, Secret* cur) {
  MergeMeta(base.meta, mine.meta, &cur->meta);
  Merge(base.type, mine.type, &cur->type);
  Merge(base.data, mine.data, &cur->data);
}

void ApplyMergePatch(const Node& base, const Node& mine, Node* cur) {
  MergeMeta(base.meta, mine.meta, &cur->meta);
  Merge(base.spec.provider_id, mine.spec.provider_id, &cur->spec.provider_id);
  Merge(base.spec.taints, mine.spec.taints, &cur->spec.taints);
  Merge(base.status.conditions, mine.status.conditions, &cur->status.conditions);
  Merge(base.status.node_info, mine.status.node_info, &cur->status.node_info);
}

}  // namespace mpsim
