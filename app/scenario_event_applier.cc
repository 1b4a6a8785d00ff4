#include "app/scenario_event_applier.h"

#include <utility>

#include "api/quantity.h"
#include "app/delete_machine.h"

namespace mpsim {
namespace {

constexpr const char* kReplicasManagedBy = "cluster.x-k8s.io/replicas-managed-by";

// Validation has parsed both quantities.
Resources PodRequest(const proto::Event::Pods& p) {
  Resources r;
  (void)ParseQuantityMilli(p.cpu(), &r.cpu_milli);
  int64_t memory_milli = 0;
  (void)ParseQuantityMilli(p.memory(), &memory_milli);
  r.memory_bytes = memory_milli / 1000;
  return r;
}

}  // namespace

ScenarioEventApplier::ScenarioEventApplier(EventTargets t)
    : t_(std::move(t)), kill_rng_(StreamFor(t_.seed, "events/killInstance")) {}

void ScenarioEventApplier::Schedule(
    const google::protobuf::RepeatedPtrField<proto::Event>& events) {
  for (const proto::Event& e : events) {
    t_.loop->At(e.at(), [this, &e] { Apply(e); });
  }
}

template <class F>
void ScenarioEventApplier::PatchPool(const std::string& pool, F change) {
  MachinePool mp;
  if (!t_.mgmt->Store<MachinePool>().Get({t_.ns, pool}, &mp).ok()) return;
  change(&mp);
  t_.mgmt->Store<MachinePool>().Patch(&mp);
}

void ScenarioEventApplier::KillInstances(const proto::Event::KillInstance& k) {
  auto pit = t_.pool_providers->find(k.pool());
  if (pit == t_.pool_providers->end()) return;
  const int killed = pit->second->KillInstances(k.pool(), k.count(), &kill_rng_);
  if (killed < 0) t_.rec->Fault(t_.loop->Now(), k.pool(), k.pool(), "killInstance.unsupported");
}

// A user's edit of the InfraMachinePool: spec.providerSpec gets each field,
// in key order, and each change is a timeline row.
void ScenarioEventApplier::SetInfraPoolSpec(const proto::Event::SetInfraPoolSpec& edit) {
  InfraMachinePool imp;
  if (!t_.mgmt->Store<InfraMachinePool>().Get({t_.ns, edit.pool()}, &imp).ok()) return;
  const std::map<std::string, std::string> fields(edit.fields().begin(), edit.fields().end());
  for (const auto& [key, value] : fields) {
    std::string& field = imp.spec.provider_spec[key];
    t_.rec->Change(t_.loop->Now(), "InfraMachinePool", edit.pool(), "spec." + key, field, value,
                   edit.pool());
    field = value;
  }
  t_.mgmt->Store<InfraMachinePool>().Patch(&imp);
}

void ScenarioEventApplier::SetClusterPaused(bool paused) {
  Cluster c;
  if (!t_.mgmt->Store<Cluster>().Get({t_.ns, t_.cluster}, &c).ok() || c.spec.paused == paused) {
    return;
  }
  c.spec.paused = paused;
  t_.mgmt->Store<Cluster>().Patch(&c);
  t_.rec->Change(t_.loop->Now(), "Cluster", t_.cluster, "spec.paused", paused ? "false" : "true",
                 paused ? "true" : "false");
}

void ScenarioEventApplier::Apply(const proto::Event& e) {
  switch (e.action_case()) {
    case proto::Event::kScale:
      PatchPool(e.scale().pool(),
                [&](MachinePool* mp) { mp->spec.replicas = e.scale().replicas(); });
      break;
    case proto::Event::kUpgrade:
      PatchPool(e.upgrade().pool(),
                [&](MachinePool* mp) { mp->spec.template_.spec.version = e.upgrade().version(); });
      break;
    case proto::Event::kDeletePool:
      t_.mgmt->Store<MachinePool>().Delete({t_.ns, e.delete_pool().pool()});
      break;
    case proto::Event::kKillInstance:
      KillInstances(e.kill_instance());
      break;
    case proto::Event::kPauseCluster:
    case proto::Event::kResumeCluster:
      SetClusterPaused(e.action_case() == proto::Event::kPauseCluster);
      break;
    case proto::Event::kSetAutoscalerReplicas:
      PatchPool(e.set_autoscaler_replicas().pool(), [&](MachinePool* mp) {
        // docs/reference/capi-core.md §5: the annotation's presence hands replicas to an
        // autoscaler.
        mp->meta.annotations.try_emplace(kReplicasManagedBy, "external-autoscaler");
        mp->spec.replicas = e.set_autoscaler_replicas().replicas();
      });
      break;
    case proto::Event::kWorkloadUnreachable:
      t_.partition->Cut(e.workload_unreachable().for_());
      break;
    case proto::Event::kDeleteMachine:
      DeletePoolMachine(t_.mgmt, t_.rec, t_.loop->Now(), t_.ns, e.delete_machine());
      break;
    case proto::Event::kSetInfraPoolSpec:
      SetInfraPoolSpec(e.set_infra_pool_spec());
      break;
    case proto::Event::kPods:
      t_.pods->CreatePods(e.pods().count(), PodRequest(e.pods()));
      break;
    case proto::Event::kDeletePods:
      t_.pods->DeletePods(e.delete_pods().count());
      break;
    case proto::Event::kDeleteCluster:
      // As `kubectl delete cluster`: the server's default propagation, background.
      t_.mgmt->Store<Cluster>().Delete({t_.ns, t_.cluster});
      break;
    default:
      break;
  }
}

}  // namespace mpsim
