#include "models/asg/awsmachinepool_reconciler.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "models/asg/aws_call.h"
#include "models/common/bootstrap_data.h"
#include "models/common/infra_pool_report.h"
#include "models/common/provider_watches.h"

namespace mpsim::asg {
namespace {

constexpr Duration kAfterCreate =
    15 * kSecond;  // CAPA: RequeueAfter 15s after CreateAutoScalingGroup
// CAPA: RequeueAfter 30s while an unfinished instance refresh keeps a new
// one from starting (docs/reference/providers.md §1.6.3 step 4).
constexpr Duration kRefreshWait = 30 * kSecond;
// CAPA's DeleteASGAndWait blocks on the GroupNotExists waiter for at most
// 15 min (pkg/cloud/services/autoscaling/autoscalinggroup.go). The simulator
// polls inside that window instead, so the worker is not held, which only
// shortens the worker's busy time.
constexpr Duration kDeleteWait = 15 * kMinute;
constexpr Duration kDeletePoll = 15 * kSecond;
// With the MachinePoolMachines gate a pass ends with RequeueAfter 3 min
// (docs/reference/providers.md §1.6.1, §1.6.2; CAPA issue #5323); without it, none.
constexpr Duration kMachinePoolMachinesRequeue = 3 * kMinute;
constexpr const char* kReplicasManagedBy = "cluster.x-k8s.io/replicas-managed-by";

}  // namespace

AwsMachinePoolReconciler::AwsMachinePoolReconciler(Client* client, const Clock* clock,
                                                   Recorder* rec,
                                                   std::map<std::string, AutoScalingGroup*> groups,
                                                   AwsThrottle* throttle)
    : client_(client), clock_(clock), rec_(rec), groups_(std::move(groups)), throttle_(throttle) {}

void AwsMachinePoolReconciler::Setup(Builder* b) {
  // No watch on the gate's AWSMachines (docs/reference/providers.md §1.6.1): their own
  // controller (awsmachine_reconciler.h) acts on each; this one sees them at
  // its 3-minute requeue and on MachinePool changes.
  WatchProviderPools(b, kAwsMachinePoolKind);
}

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
  if (Status s = Call(imp, "autoscaling:DescribeAutoScalingGroups"); !s.ok()) return s;
  // The launch template comes first, group or none; a pass it requeues ends
  // here, before the group's size or the providerIDList is touched.
  Status lt = ReconcileLaunchTemplate(imp, mp, asg, result);
  if (!lt.ok() || result->requeue_after > 0) return lt;
  if (!asg->exists()) {
    // The group on "$Latest"; the template a failed create made is kept.
    if (Status s = Call(imp, "autoscaling:CreateAutoScalingGroup"); !s.ok()) return s;
    asg->Create(mp.spec.replicas.value_or(1), launch_templates_[imp.meta.name].image);
    result->requeue_after = kAfterCreate;
    return Status::Ok();
  }
  if (Status s = SyncReplicas(imp, mp, asg); !s.ok()) return s;
  if (Status s = WriteStatus(imp, asg); !s.ok()) return s;
  if (!asg->options().machine_pool_machines) return Status::Ok();
  if (Status s = SyncAwsMachines(imp, mp, asg); !s.ok()) return s;
  result->requeue_after = kMachinePoolMachinesRequeue;
  return Status::Ok();
}

// ReconcileLaunchTemplate (launchtemplate.go, docs/reference/providers.md
// §1.6.3), for the changes the model makes: a new Kubernetes version means a
// new AMI (amiChanged, CAPA PR #2193), a new data secret name a new
// bootstrap-data-secret tag (userDataSecretKeyChanged), and a rotated join
// token new user data (userDataHashChanged). In its order: read the bootstrap
// data; make the template if there is none; for any change but the user
// data's, wait for an unfinished refresh (step 4); a new template version
// for any change (step 5); the refresh, for any change but the user data's
// and only once the group exists (step 6). If StartInstanceRefresh fails
// after the new version exists, the next pass sees no difference and the
// refresh is never started (the FIXME of §1.6.3).
Status AwsMachinePoolReconciler::ReconcileLaunchTemplate(const InfraMachinePool& imp,
                                                         const MachinePool& mp,
                                                         AutoScalingGroup* asg, Result* result) {
  std::string user_data;  // GetRawBootstrapData; no S3 storage of Ignition data
  if (Status s = GetBootstrapData(client_, imp.meta.ns, mp, &user_data); !s.ok()) return s;
  const std::string version = mp.spec.template_.spec.version.value_or("");
  const LaunchTemplateData want{
      .image = version,
      .user_data_hash = DataHash(user_data),
      .secret_key = imp.meta.ns + "/" + *mp.spec.template_.spec.bootstrap.data_secret_name};
  auto current = launch_templates_.find(imp.meta.name);
  if (current == launch_templates_.end()) {
    if (Status s = Call(imp, "ec2:CreateLaunchTemplate"); !s.ok()) return s;
    launch_templates_.emplace(imp.meta.name, want);
    return Status::Ok();
  }
  const LaunchTemplateData& have = current->second;
  // needsUpdate and tagsChanged compare what the model never varies. The
  // model's templates always carry the secret-key tag, so
  // launchTemplateNeedsUserDataSecretKeyTag is never set.
  const bool ami_changed = want.image != have.image;
  const bool user_data_secret_key_changed = want.secret_key != have.secret_key;
  const bool user_data_hash_changed = want.user_data_hash != have.user_data_hash;
  const bool refresh = ami_changed || user_data_secret_key_changed;  // "more than the token"
  if (refresh) {
    Status wait = WaitForUnfinishedRefresh(imp, asg, result);
    if (!wait.ok() || result->requeue_after > 0) return wait;
  }
  if (!refresh && !user_data_hash_changed) return Status::Ok();
  if (Status s = Call(imp, "ec2:CreateLaunchTemplateVersion"); !s.ok()) return s;
  current->second = want;
  asg->NewLaunchTemplateVersion(version);
  // Only the user data changed: new launches take it from "$Latest", the
  // instances running keep theirs (launchtemplate.go:326, CAPA PR #2354).
  if (!refresh || !asg->exists()) return Status::Ok();
  if (Status s = Call(imp, "autoscaling:StartInstanceRefresh"); !s.ok()) return s;
  if (!asg->StartInstanceRefresh()) {
    return Status::Conflict("failed to start ASG instance refresh \"" + imp.meta.name +
                            "\": InstanceRefreshInProgress");
  }
  return Status::Ok();
}

// Only one refresh at a time: CAPA cancels an InProgress one (a Cancelling one
// is left to end) and comes back in 30 s (launchtemplate.go:251-275). Without
// a group there is nothing to wait for.
Status AwsMachinePoolReconciler::WaitForUnfinishedRefresh(const InfraMachinePool& imp,
                                                          AutoScalingGroup* asg, Result* result) {
  if (!asg->exists()) return Status::Ok();
  if (Status s = Call(imp, "autoscaling:DescribeInstanceRefreshes"); !s.ok()) return s;
  const std::optional<RefreshStatus> unfinished = asg->UnfinishedRefresh();
  if (!unfinished) return Status::Ok();
  if (*unfinished != RefreshStatus::kCancelling) {
    if (Status s = Call(imp, "autoscaling:CancelInstanceRefresh"); !s.ok()) return s;
    asg->CancelInstanceRefresh();  // ActiveInstanceRefreshNotFound is success to CAPA
  }
  result->requeue_after = kRefreshWait;
  return Status::Ok();
}

// The desired capacity follows the MachinePool, unless an external autoscaler
// owns it: then the MachinePool follows the group.
Status AwsMachinePoolReconciler::SyncReplicas(const InfraMachinePool& imp, const MachinePool& mp,
                                              AutoScalingGroup* asg) {
  const int32_t want = mp.spec.replicas.value_or(1);
  if (mp.meta.annotations.count(kReplicasManagedBy)) {
    if (want == asg->desired()) return Status::Ok();
    MachinePool updated = mp;
    updated.spec.replicas = asg->desired();
    return client_->MachinePools().Patch(mp, &updated);
  }
  if (want == asg->desired()) return Status::Ok();
  if (Status s = Call(imp, "autoscaling:UpdateAutoScalingGroup"); !s.ok()) return s;
  asg->SetDesired(want);
  return Status::Ok();
}

// Every listed instance, whatever its state, in API order; ready as soon as
// the group exists (docs/reference/providers.md §1.6.1).
Status AwsMachinePoolReconciler::WriteStatus(const InfraMachinePool& imp, AutoScalingGroup* asg) {
  const std::vector<const Instance*> described = asg->Describe();
  // CAPA formats ProviderIdOf(inst, !missing_az) for each instance; the
  // model made that string once, at launch. The list the pool has is kept
  // when it names the same strings in the same order (most passes: the
  // group launched everything early), sparing a 10,000-entry copy.
  static const ProviderIDList kNone;
  const ProviderIDList& current = imp.spec.provider_id_list.value_or(kNone);
  const bool same = imp.spec.provider_id_list && current.size() == described.size() &&
                    std::equal(described.begin(), described.end(), current.begin(),
                               [](const Instance* inst, const SharedString& id) {
                                 return inst->list_entry.identity() == id.identity();
                               });
  ProviderIDList ids = current;
  if (!same) {
    std::vector<SharedString> fresh;
    fresh.reserve(described.size());
    for (const Instance* inst : described) fresh.push_back(inst->list_entry);
    ids = std::move(fresh);
  }
  // With the gate, status.infrastructureMachineKind tells core to make
  // MachinePool Machines for the AWSMachines.
  std::optional<std::string> kind;
  if (asg->options().machine_pool_machines) kind = kAwsMachineKind;
  return PatchInfraPoolReport(&client_->InfraMachinePools(), imp,
                              {.provider_ids = std::move(ids),
                               .ready = true,
                               .provisioned = true,
                               .machine_kind = std::move(kind)});
}

Status AwsMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp, AutoScalingGroup* asg,
                                                 Result* result) {
  if (asg->exists()) {
    if (Status s = Call(imp, "autoscaling:DescribeAutoScalingGroups"); !s.ok()) return s;
    if (!asg->deleting()) {
      if (Status s = Call(imp, "autoscaling:DeleteAutoScalingGroup"); !s.ok()) return s;
      asg->Delete();
      delete_waits_[imp.meta.name] = clock_->Now();
    }
    if (Status s = WaitForDelete(imp, asg, result); !s.ok() || result->requeue_after > 0) {
      return s;
    }
  }
  delete_waits_.erase(imp.meta.name);
  if (!HasFinalizer(imp.meta, kAwsMachinePoolFinalizer)) return Status::Ok();
  if (Status s = Call(imp, "ec2:DeleteLaunchTemplate"); !s.ok()) return s;
  InfraMachinePool next = imp;
  // A group still "Delete in progress" here: CAPA marks the pool not ready
  // and goes on to remove the finalizer (reconcileDelete).
  if (asg->exists()) next.status.ready = false;
  std::erase(next.meta.finalizers, std::string(kAwsMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

// Inside the waiter: poll until the group is gone or 15 min have passed; then
// the waiter's error fails the pass, and the next pass finds the group
// "Delete in progress" and no longer waits.
Status AwsMachinePoolReconciler::WaitForDelete(const InfraMachinePool& imp, AutoScalingGroup* asg,
                                               Result* result) {
  auto wait = delete_waits_.find(imp.meta.name);
  if (wait == delete_waits_.end() || !asg->exists()) return Status::Ok();
  const Duration waited = clock_->Now() - wait->second;
  if (waited < kDeleteWait) {
    result->requeue_after = std::min(kDeletePoll, kDeleteWait - waited);
    return Status::Ok();
  }
  delete_waits_.erase(wait);
  return Status::Timeout("failed to delete ASG: failed to wait for ASG \"" + imp.meta.name +
                         "\" deletion: exceeded max wait time for GroupNotExists waiter");
}

Status AwsMachinePoolReconciler::Call(const InfraMachinePool& imp, const char* api) {
  return AwsCall(throttle_, rec_, clock_->Now(), imp.meta.name, imp.meta.name, api);
}

}  // namespace mpsim::asg
