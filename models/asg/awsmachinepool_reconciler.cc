#include "models/asg/awsmachinepool_reconciler.h"

#include <algorithm>

#include "api/provider_watches.h"

namespace mpsim::asg {
namespace {

constexpr Duration kAfterCreate =
    15 * kSecond;  // CAPA: RequeueAfter 15s after CreateAutoScalingGroup
// CAPA blocks up to 15 min on the GroupNotExists waiter; the simulator polls
// instead so the worker is not held, which only shortens the worker's busy time.
constexpr Duration kDeletePoll = 15 * kSecond;
constexpr const char* kReplicasManagedBy = "cluster.x-k8s.io/replicas-managed-by";

// The providerIDList entry CAPA builds: "aws:///<az>/<id>" (providers.md §1.5).
std::string ProviderID(const Instance& inst) {
  return "aws:///" + (inst.missing_az ? std::string() : inst.zone) + "/" + inst.id;
}

}  // namespace

AwsMachinePoolReconciler::AwsMachinePoolReconciler(Client* client, const Clock* clock,
                                                   Recorder* rec,
                                                   std::map<std::string, AutoScalingGroup*> groups)
    : client_(client), clock_(clock), rec_(rec), groups_(std::move(groups)) {}

void AwsMachinePoolReconciler::Setup(Builder* b) { WatchProviderPools(b, kAwsMachinePoolKind); }

Status AwsMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  auto g = groups_.find(imp->meta.name);
  if (g == groups_.end())
    return Status::Invalid("no Auto Scaling Group model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();  // waits for the MachinePool to adopt it
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, g->second, result);
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  return ReconcileNormal(*imp, *mp, g->second, result);
}

Status AwsMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp,
                                                 AutoScalingGroup* asg, Result* result) {
  if (imp.status.failure_reason) return Status::Ok();  // terminal, never cleared here
  if (!HasFinalizer(imp.meta, kAwsMachinePoolFinalizer)) {
    InfraMachinePool with = imp;
    with.meta.finalizers.push_back(kAwsMachinePoolFinalizer);
    if (Status s = client_->InfraMachinePools().Patch(imp, &with); !s.ok()) return s;
  }
  if (!mp.spec.template_.spec.bootstrap.data_secret_name)
    return Status::Ok();  // WaitingForBootstrapData
  Call(imp, "autoscaling:DescribeAutoScalingGroups");
  if (!asg->exists()) {
    Call(imp, "ec2:CreateLaunchTemplate");
    Call(imp, "autoscaling:CreateAutoScalingGroup");
    const std::string version = mp.spec.template_.spec.version.value_or("");
    template_versions_[imp.meta.name] = version;
    asg->Create(mp.spec.replicas.value_or(1), version);
    result->requeue_after = kAfterCreate;
    return Status::Ok();
  }
  SyncLaunchTemplate(mp, asg);
  if (Status s = SyncReplicas(mp, asg); !s.ok()) return s;
  return WriteStatus(imp, asg);
}

// launchtemplate.go: a new Kubernetes version means a new AMI, a new template
// version and an instance refresh (CAPA PR #2193).
void AwsMachinePoolReconciler::SyncLaunchTemplate(const MachinePool& mp, AutoScalingGroup* asg) {
  const std::string version = mp.spec.template_.spec.version.value_or("");
  std::string& current = template_versions_[mp.spec.template_.spec.infrastructure_ref.name];
  if (version == current) return;
  current = version;
  rec_->ProviderApiCall(mp.meta.name, "ec2:CreateLaunchTemplateVersion");
  asg->NewLaunchTemplateVersion(version);
  rec_->ProviderApiCall(mp.meta.name, "autoscaling:StartInstanceRefresh");
  asg->StartInstanceRefresh();
}

// The desired capacity follows the MachinePool, unless an external autoscaler
// owns it: then the MachinePool follows the group.
Status AwsMachinePoolReconciler::SyncReplicas(const MachinePool& mp, AutoScalingGroup* asg) {
  const int32_t want = mp.spec.replicas.value_or(1);
  if (mp.meta.annotations.count(kReplicasManagedBy)) {
    if (want == asg->desired()) return Status::Ok();
    MachinePool updated = mp;
    updated.spec.replicas = asg->desired();
    return client_->MachinePools().Patch(mp, &updated);
  }
  if (want == asg->desired()) return Status::Ok();
  rec_->ProviderApiCall(mp.meta.name, "autoscaling:UpdateAutoScalingGroup");
  asg->SetDesired(want);
  return Status::Ok();
}

// Every listed instance, whatever its state, in API order; ready as soon as
// the group exists (providers.md §1.6.1).
Status AwsMachinePoolReconciler::WriteStatus(const InfraMachinePool& imp, AutoScalingGroup* asg) {
  std::vector<std::string> ids;
  for (const Instance* inst : asg->Describe()) ids.push_back(ProviderID(*inst));
  const int32_t n = static_cast<int32_t>(ids.size());
  if (imp.spec.provider_id_list == ids && imp.status.replicas == n && imp.status.ready == true &&
      imp.status.initialization_provisioned == true) {
    return Status::Ok();
  }
  InfraMachinePool next = imp;
  next.spec.provider_id_list = std::move(ids);
  next.status.replicas = n;
  next.status.ready = true;
  next.status.initialization_provisioned = true;
  return client_->InfraMachinePools().Patch(imp, &next);
}

Status AwsMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp, AutoScalingGroup* asg,
                                                 Result* result) {
  if (asg->exists()) {
    Call(imp, "autoscaling:DescribeAutoScalingGroups");
    if (!asg->deleting()) {
      Call(imp, "autoscaling:DeleteAutoScalingGroup");
      asg->Delete();
    }
    if (asg->exists()) {
      result->requeue_after = kDeletePoll;
      return Status::Ok();
    }
  }
  if (!HasFinalizer(imp.meta, kAwsMachinePoolFinalizer)) return Status::Ok();
  Call(imp, "ec2:DeleteLaunchTemplate");
  InfraMachinePool next = imp;
  std::erase(next.meta.finalizers, std::string(kAwsMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

void AwsMachinePoolReconciler::Call(const InfraMachinePool& imp, const char* api) const {
  rec_->ProviderApiCall(imp.meta.name, api);
}

}  // namespace mpsim::asg
