// machinepool_controller_phases.go (docs/reference/capi-core.md §1.5-§1.8):
// reconcilePhase, reconcileBootstrap and reconcileInfrastructure.
#include "controller/capi_names.h"
#include "controller/conditions.h"
#include "controller/errors.h"
#include "controller/machinepool_internal.h"

namespace mpsim {
namespace {

// annotations.ReplicasManagedByExternalAutoscaler: present and not "false".
bool ManagedByAutoscaler(const MachinePool& mp) {
  auto it = mp.meta.annotations.find(capi::kReplicasManagedByAnnotation);
  return it != mp.meta.annotations.end() && it->second != "false";
}

// D2: HEAD reads only status.ready; PR #14030 prefers the v1beta2 contract
// field status.initialization.provisioned and falls back to status.ready.
bool InfraProvisioned(const MachinePoolOptions& opts, const InfraMachinePool& infra) {
  if (opts.fix_initialization_provisioned && infra.status.initialization_provisioned) {
    return *infra.status.initialization_provisioned;
  }
  return infra.status.ready.value_or(false);
}

bool BootstrapDataSecretCreated(const BootstrapConfig& cfg) {
  if (cfg.contract_version == "v1beta1") return cfg.status.ready.value_or(false);
  return cfg.status.data_secret_created.value_or(false);
}

// The NotFound branch of reconcileInfrastructure.
void MarkInfraMissing(MachinePool* mp, Time now) {
  const ObjectReference& ref = mp->spec.template_.spec.infrastructure_ref;
  if (mp->status.initialization.infrastructure_provisioned.value_or(false)) {
    MachinePoolV1Beta1Status& v = V1Beta1(mp);
    v.failure_reason = capi::kInvalidConfigurationError;
    v.failure_message = "MachinePool infrastructure resource " + ref.kind + " " +
                        ObjectKey{mp->meta.ns, ref.name}.String() +
                        " has been deleted after being ready";
  }
  MarkV1Beta1False(mp, capi::kInfrastructureReadyV1Beta1, capi::kIncorrectExternalRefReason,
                   capi::kSeverityError,
                   "could not find infra reference of kind " + ref.kind + " with name " + ref.name,
                   now);
}

}  // namespace

// reconcilePhase (machinepool_controller_phases.go), docs/reference/capi-core.md §1.8:
// rules in order, each later match overwriting; the phase is sticky when
// none matches.
void ReconcilePhase(MachinePool* mp) {
  MachinePoolStatus& st = mp->status;
  const bool infra = st.initialization.infrastructure_provisioned.value_or(false);
  const bool boot = st.initialization.bootstrap_data_secret_created.value_or(false);
  const int32_t ready = V1Beta1ReadyReplicas(*mp);
  const std::optional<int32_t>& replicas = mp->spec.replicas;
  if (st.phase.empty()) st.phase = capi::kPhasePending;
  if (boot && !infra) st.phase = capi::kPhaseProvisioning;
  if (!st.node_refs.empty()) st.phase = capi::kPhaseProvisioned;
  if (infra && replicas && *replicas == ready) st.phase = capi::kPhaseRunning;
  if (infra && replicas && *replicas > ready) {
    st.phase = ManagedByAutoscaler(*mp) ? capi::kPhaseScaling : capi::kPhaseScalingUp;
  }
  if (infra && replicas && *replicas < ready) {
    st.phase = ManagedByAutoscaler(*mp) ? capi::kPhaseScaling : capi::kPhaseScalingDown;
  }
  if (mp->meta.deletion_timestamp) st.phase = capi::kPhaseDeleting;
}

// reconcileBootstrap (machinepool_controller_phases.go), docs/reference/capi-core.md §1.5.
Status ReconcileBootstrap(const MachinePoolDeps& d, MachinePoolScope* s, Result*) {
  MachinePool* mp = s->mp;
  Bootstrap& bootstrap = mp->spec.template_.spec.bootstrap;
  if (!bootstrap.config_ref) {
    // The user brought their own bootstrap data.
    if (bootstrap.data_secret_name) {
      mp->status.initialization.bootstrap_data_secret_created = true;
      MarkV1Beta1True(mp, capi::kBootstrapReadyV1Beta1, d.clock->Now());
      return Status::Ok();
    }
    return Status::Invalid(
        "neither .spec.bootstrap.configRef nor .spec.bootstrap.dataSecretName "
        "are set for MachinePool \"" +
        mp->meta.name + "\" in namespace \"" + mp->meta.ns + "\"");
  }
  BootstrapConfig cfg;
  Status st = ReconcileExternalBootstrap(d, s, *bootstrap.config_ref, &cfg);
  if (!st.ok()) return st;
  if (cfg.meta.deletion_timestamp) return Status::Ok();
  const bool created = BootstrapDataSecretCreated(cfg);
  MirrorV1Beta1(mp, capi::kBootstrapReadyV1Beta1, cfg.status.conditions, created,
                capi::kWaitingForDataSecretReason, d.clock->Now());
  // D5: recomputed every pass, so it can go back to false; the old secret stays.
  if (!created) {
    mp->status.initialization.bootstrap_data_secret_created = false;
    return Status::Ok();
  }
  if (!cfg.status.data_secret_name) {
    return Status::Invalid(
        "retrieved empty dataSecretName from bootstrap provider for "
        "MachinePool \"" +
        mp->meta.name + "\" in namespace \"" + mp->meta.ns + "\"");
  }
  bootstrap.data_secret_name = cfg.status.data_secret_name;
  mp->status.initialization.bootstrap_data_secret_created = true;
  return Status::Ok();
}

// reconcileInfrastructure (machinepool_controller_phases.go), docs/reference/capi-core.md §1.6.
Status ReconcileInfrastructure(const MachinePoolDeps& d, MachinePoolScope* s, Result*) {
  MachinePool* mp = s->mp;
  const Time now = d.clock->Now();
  InfraMachinePool infra;
  Status st = ReconcileExternalInfra(d, s, mp->spec.template_.spec.infrastructure_ref, &infra);
  if (!st.ok()) {
    if (st.IsNotFound()) MarkInfraMissing(mp, now);
    return st;  // s->infra_machine_pool and s->node_ref_map stay nil
  }
  s->infra_machine_pool = infra;
  if (infra.meta.deletion_timestamp) return Status::Ok();

  const bool ready = InfraProvisioned(d.opts, infra);
  mp->status.initialization.infrastructure_provisioned = ready;  // D5: can go true -> false
  MirrorV1Beta1(mp, capi::kInfrastructureReadyV1Beta1, infra.status.conditions, ready,
                capi::kWaitingForInfrastructureReason, now);

  ObjectClient<Node>* cluster_client = nullptr;
  st = d.client->WorkloadNodes(s->cluster.meta.Key(), &cluster_client);
  if (!st.ok()) return st;
  s->node_ref_map = GetNodeRefMap(cluster_client, d.opts.provider_id_match);
  // MachinePool Machines are reconciled whether or not the infra pool is ready.
  st = ReconcileMachines(d, s, infra);
  if (!st.ok()) {
    return Wrap(st, "failed to reconcile Machines for MachinePool " + mp->meta.Key().String());
  }
  if (!ready) return Status::Ok();  // "Infrastructure provider is not yet ready"

  const std::optional<ProviderIDList>& provider_id_list = infra.spec.provider_id_list;
  if (infra.status.replicas) mp->status.replicas = infra.status.replicas;
  if ((!provider_id_list || provider_id_list->empty()) && mp->status.replicas.value_or(0) != 0) {
    return Status::Ok();  // "Retrieved empty spec.providerIDList ... status.replicas is not zero"
  }
  // nil and [] differ, as in reflect.DeepEqual.
  if (!(mp->spec.provider_id_list == provider_id_list)) {
    mp->spec.provider_id_list = provider_id_list;
    MachinePoolV1Beta1Status& v1beta1 = V1Beta1(mp);
    v1beta1.ready_replicas = 0;
    v1beta1.available_replicas = 0;
    v1beta1.unavailable_replicas = mp->status.replicas.value_or(0);
  }
  return Status::Ok();
}

}  // namespace mpsim
