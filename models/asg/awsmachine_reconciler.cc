#include "models/asg/awsmachine_reconciler.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "models/asg/aws_call.h"
#include "models/asg/awsmachinepool_reconciler.h"

namespace mpsim::asg {
namespace {

// controllers/awsmachine_controller.go: DefaultReconcilerRequeue while the
// instance is pending, and one minute between looks at a terminating one.
constexpr Duration kPendingRequeue = 30 * kSecond;
constexpr Duration kTerminatingRequeue = kMinute;

// The AWSMachinePool that made the machine: its (non-controller) owner.
const OwnerReference* PoolOwner(const InfraMachine& am) {
  for (const OwnerReference& r : am.meta.owner_references) {
    if (r.kind == kAwsMachinePoolKind) return &r;
  }
  return nullptr;
}

bool Pending(State s) {
  return s == State::kPending || s == State::kPendingWait || s == State::kPendingProceed;
}

}  // namespace

std::string_view InstanceIdOf(const InfraMachine& am) {
  if (!am.spec.provider_id) return {};
  const std::string_view id = *am.spec.provider_id;
  return id.substr(id.rfind('/') + 1);
}

AwsMachineReconciler::AwsMachineReconciler(Client* client, const Clock* clock, Recorder* rec,
                                           std::map<std::string, AutoScalingGroup*> groups,
                                           AwsThrottle* throttle)
    : client_(client), clock_(clock), rec_(rec), groups_(std::move(groups)), throttle_(throttle) {}

// SetupWithManager: For(AWSMachine) with updates that change only status
// dropped, and Machines mapped to their infrastructureRef
// (util.MachineToInfrastructureMapFunc). The AWSCluster and Cluster watches
// are left out: the simulated cluster infrastructure never changes.
void AwsMachineReconciler::Setup(Builder* b) {
  b->WatchInfraMachines([](const WatchEvent<InfraMachine>& ev) {
    if (ev.obj.kind != kAwsMachineKind) return std::vector<Request>{};
    if (ev.old != nullptr && ev.old->spec == ev.obj.spec && ev.old->meta == ev.obj.meta) {
      return std::vector<Request>{};
    }
    return std::vector<Request>{{ev.obj.meta.Key()}};
  });
  b->WatchMachines([](const WatchEvent<Machine>& ev) {
    const ObjectReference& ref = ev.obj.spec.infrastructure_ref;
    if (ref.kind != kAwsMachineKind) return std::vector<Request>{};
    return std::vector<Request>{{{ev.obj.meta.ns, ref.name}}};
  });
}

// Nothing until core has made the owner Machine ("Machine Controller has not
// yet set OwnerRef"); core names that Machine after its AWSMachine. Then one
// DescribeInstances for the providerID's instance.
Status AwsMachineReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachine> am = client_->InfraMachines().GetShared(req.key);
  if (am == nullptr || am->kind != kAwsMachineKind) return Status::Ok();
  if (client_->Machines().GetShared(am->meta.Key()) == nullptr) return Status::Ok();
  const OwnerReference* pool = PoolOwner(*am);
  auto group = pool ? groups_.find(pool->name) : groups_.end();
  if (group == groups_.end()) {
    return Status::Invalid("no Auto Scaling Group model for the pool of " + req.key.String());
  }
  // Counted but not charged to the account's describe bucket: CAPA's own
  // client-side limiter (pkg/cloud/scope/session.go, 20 rps, burst 100;
  // docs/reference/providers.md §1.3) makes these calls wait rather than fail, and charged
  // here they failed by the hundred at every resync of a few hundred
  // AWSMachines (docs/architecture.md).
  rec_->ProviderApiCall(pool->name, "ec2:DescribeInstances");
  const Instance* inst = group->second->Find(std::string(InstanceIdOf(*am)));
  if (am->meta.deletion_timestamp) {
    return ReconcileDelete(*am, inst, group->second, pool->name, result);
  }
  return ReconcileNormal(*am, inst, pool->name, result);
}

// The finalizer goes on after the first read from AWS; ready while the
// instance runs. The model has no EC2 state apart from the group's lifecycle
// state, so InService stands for running. An instance shutting down makes the
// machine not ready (InstanceTerminated, severity Info), never failed.
Status AwsMachineReconciler::ReconcileNormal(const InfraMachine& am, const Instance* inst,
                                             const std::string& pool, Result* result) {
  if (inst == nullptr) {
    return Status::NotFound("no instance found for machine pool " + pool + ": " +
                            std::string(InstanceIdOf(am)));
  }
  InfraMachine next = am;
  if (!HasFinalizer(am.meta, kAwsMachineFinalizer)) {
    next.meta.finalizers.push_back(kAwsMachineFinalizer);
    if (Status s = client_->InfraMachines().Patch(am, &next); !s.ok()) return s;
  }
  if (Pending(inst->state)) result->requeue_after = kPendingRequeue;
  const bool ready = inst->state == State::kInService;
  if (next.status.ready == ready) return Status::Ok();
  const InfraMachine before = next;
  next.status.ready = ready;
  return client_->InfraMachines().Patch(before, &next);
}

// reconcileDelete: terminate the instance with plain TerminateInstances
// (the group's desired capacity stays), then look again every minute until
// it is gone; the finalizer goes with it.
Status AwsMachineReconciler::ReconcileDelete(const InfraMachine& am, const Instance* inst,
                                             AutoScalingGroup* asg, const std::string& pool,
                                             Result* result) {
  if (inst == nullptr) return RemoveFinalizer(am);
  if (!Leaving(inst->state)) {
    if (Status s =
            AwsCall(throttle_, rec_, clock_->Now(), pool, am.meta.name, "ec2:TerminateInstances");
        !s.ok()) {
      return s;
    }
    asg->TerminateInstance(inst->id);
  }
  result->requeue_after = kTerminatingRequeue;
  return Status::Ok();
}

Status AwsMachineReconciler::RemoveFinalizer(const InfraMachine& am) {
  if (!HasFinalizer(am.meta, kAwsMachineFinalizer)) return Status::Ok();
  InfraMachine next = am;
  std::erase(next.meta.finalizers, std::string(kAwsMachineFinalizer));
  return client_->InfraMachines().Patch(am, &next);
}

}  // namespace mpsim::asg
