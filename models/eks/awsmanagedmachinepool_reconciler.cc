#include "models/eks/awsmanagedmachinepool_reconciler.h"

#include <charconv>
#include <vector>

#include "models/common/infra_pool_report.h"
#include "models/common/provider_watches.h"
#include "models/eks/sdk_waiter.h"

namespace mpsim::eks {
namespace {

// What a recovered panic looks like to the workqueue: an error, so a
// rate-limited retry (RecoverPanic, §1.1).
Status NilDereference(const char* where) {
  return Status::Internal(std::string("panic: runtime error: invalid memory address or nil "
                                      "pointer dereference [recovered] (") +
                          where + ")");
}

// errors.Wrap: the same error with `prefix` before its message.
Status Wrap(const Status& s, const std::string& prefix) {
  std::string m = prefix + s.message();
  switch (s.code()) {
    case Status::Code::kOk:
      return s;
    case Status::Code::kNotFound:
      return Status::NotFound(std::move(m));
    case Status::Code::kAlreadyExists:
      return Status::AlreadyExists(std::move(m));
    case Status::Code::kConflict:
      return Status::Conflict(std::move(m));
    case Status::Code::kInvalid:
      return Status::Invalid(std::move(m));
    case Status::Code::kUnavailable:
      return Status::Unavailable(std::move(m));
    case Status::Code::kTimeout:
      return Status::Timeout(std::move(m));
    case Status::Code::kThrottled:
      return Status::Throttled(std::move(m));
    case Status::Code::kInternal:
      break;
  }
  return Status::Internal(std::move(m));
}

bool Busy(NodegroupStatus s) {
  return s == NodegroupStatus::kCreating || s == NodegroupStatus::kUpdating;
}

}  // namespace

ScalingBounds ScalingBoundsOf(const InfraMachinePool& imp, const EksOptions& opts) {
  // Validation has made each edited value a count (eks_validate.cc).
  const auto field = [&](const char* key, std::optional<int32_t> block) {
    auto it = imp.spec.provider_spec.find(key);
    if (it == imp.spec.provider_spec.end()) return block;
    int32_t n = 0;
    std::from_chars(it->second.data(), it->second.data() + it->second.size(), n);
    return std::optional<int32_t>(n);
  };
  return {.min_size = field(kScalingMinSizeField, opts.min_size),
          .max_size = field(kScalingMaxSizeField, opts.max_size)};
}

Status ScalingConfigOf(const MachinePool& mp, const ScalingBounds& bounds, ScalingConfig* out) {
  out->desired = mp.spec.replicas.value_or(1);
  out->min_size.reset();
  out->max_size.reset();
  if (!bounds.max_size) return Status::Ok();
  if (!bounds.min_size) return NilDereference("scalingConfig: spec.scaling.minSize is nil");
  out->max_size = bounds.max_size;
  out->min_size = bounds.min_size;
  return Status::Ok();
}

std::string KubeletFor(const std::string& minor, const std::string& mp_version) {
  if (!mp_version.empty() && MinorOf(mp_version) == minor) return mp_version;
  return "v" + minor + ".0";
}

AwsManagedMachinePoolReconciler::AwsManagedMachinePoolReconciler(Client* client, const Clock* clock,
                                                                 Recorder* rec,
                                                                 std::map<std::string, Pool> pools,
                                                                 EksApiThrottle* throttle)
    : client_(client), clock_(clock), rec_(rec), throttle_(throttle), pools_(std::move(pools)) {}

// ctl:66-87: the pool itself with no predicate (its own status patches wake
// it again), and every MachinePool mapped to its infrastructure object. The
// AWSManagedControlPlane watch has nothing to map in the model, whose
// control plane is ready throughout.
void AwsManagedMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kAwsManagedMachinePoolKind, PoolStatusUpdates::kKept);
}

// ctl:96-266. A pass held inside a waiter comes back here at each poll.
Status AwsManagedMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  auto p = pools_.find(req.key.name);
  if (waiters_.count(req.key.name) && p != pools_.end()) return Poll(req, p->second, result);
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  if (p == pools_.end()) return Status::Invalid("no EKS node group model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();  // ctl:107-115
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, p->second, result);
  if (!HasFinalizer(imp->meta, kAwsManagedMachinePoolFinalizer)) {  // ctl:205-209
    InfraMachinePool with = *imp;
    with.meta.finalizers.push_back(kAwsManagedMachinePoolFinalizer);
    if (Status s = client_->InfraMachinePools().Patch(*imp, &with); !s.ok()) return s;
    imp = client_->InfraMachinePools().GetShared(req.key);
    if (imp == nullptr) return Status::Ok();
  }
  return ReconcileNodegroup(*imp, *mp, p->second, result);
}

// reconcileNodegroup (ng:513-580): describe, create if absent, setStatus
// (patched before any wait), then the waiter while CREATING or UPDATING.
Status AwsManagedMachinePoolReconciler::ReconcileNodegroup(const InfraMachinePool& imp,
                                                           const MachinePool& mp, const Pool& pool,
                                                           Result* result) {
  NodeGroup* ng = pool.node_group;
  if (Status s = Call(imp.meta.name, "eks:DescribeNodegroup"); !s.ok()) return s;
  if (ng->status() == NodegroupStatus::kAbsent) {
    ScalingConfig scaling;
    if (Status s = ScalingConfigOf(mp, ScalingBoundsOf(imp, ng->options()), &scaling); !s.ok()) {
      return s;
    }
    if (Status s = Call(imp.meta.name, "eks:CreateNodegroup"); !s.ok()) return s;
    const std::string version = mp.spec.template_.spec.version.value_or("");
    if (Status s = ng->Create(scaling, MinorOf(version), KubeletFor(MinorOf(version), version));
        !s.ok()) {
      return Wrap(s, "failed to create nodegroup: ");
    }
  }
  if (Status s = SetStatus(imp, pool); !s.ok()) return s;
  if (Busy(ng->status())) return StartWait({imp.meta.Key()}, false, pool, result);
  return ReconcileChanges(imp, mp, pool);
}

// ng:545-577, on a node group that is not CREATING or UPDATING.
Status AwsManagedMachinePoolReconciler::ReconcileChanges(const InfraMachinePool& imp,
                                                         const MachinePool& mp, const Pool& pool) {
  NodeGroup* ng = pool.node_group;
  MachinePool current = mp;
  if (mp.meta.annotations.count(kReplicasManagedBy) &&
      mp.spec.replicas != std::optional<int32_t>(ng->scaling().desired)) {
    current.spec.replicas = ng->scaling().desired;
    if (Status s = client_->MachinePools().Patch(mp, &current); !s.ok()) return s;
  }
  // The config step compares with the node group as described before the
  // version step (the stale `ng` of §1.7).
  const ScalingConfig described = ng->scaling();
  if (Status s = ReconcileVersion(imp, current, pool); !s.ok()) return s;
  return ReconcileConfig(imp, current, pool, described);
}

// §1.6: one minor version per call; never downgrades; an error is returned
// at once (the declared backoff never retries, §1.6 "correction").
Status AwsManagedMachinePoolReconciler::ReconcileVersion(const InfraMachinePool& imp,
                                                         const MachinePool& mp, const Pool& pool) {
  NodeGroup* ng = pool.node_group;
  const std::string version = mp.spec.template_.spec.version.value_or("");
  if (version.empty() || CompareMinor(ng->version(), MinorOf(version)) >= 0) return Status::Ok();
  const std::string next = NextMinor(ng->version());
  if (Status s = Call(imp.meta.name, "eks:UpdateNodegroupVersion"); !s.ok()) return s;
  if (Status s = ng->UpdateVersion(next, KubeletFor(next, version)); !s.ok()) {
    rec_->Change(clock_->Now(), kAwsManagedMachinePoolKind, imp.meta.name, "event", "",
                 "FailedUpdateEKSNodegroup", imp.meta.name);
    return Wrap(s, "failed to update nodegroup version: ");
  }
  return Status::Ok();
}

// §1.7: one UpdateNodegroupConfig when the desired size or min/max differ;
// the whole scaling config is sent, desired size included, so under an
// external autoscaler a minSize raised above the desired size is sent with
// that size and EKS answers 400 on every pass (CAPA#5746, §4.2).
Status AwsManagedMachinePoolReconciler::ReconcileConfig(const InfraMachinePool& imp,
                                                        const MachinePool& mp, const Pool& pool,
                                                        const ScalingConfig& described) {
  NodeGroup* ng = pool.node_group;
  const ScalingBounds b = ScalingBoundsOf(imp, ng->options());
  const bool desired_differs =
      mp.spec.replicas ? *mp.spec.replicas != described.desired : described.desired != 1;
  bool bounds_differ = false;
  if (b.max_size) {
    if (!b.min_size) return NilDereference("reconcileNodegroupConfig: spec.scaling.minSize is nil");
    bounds_differ = described.min_size != b.min_size || described.max_size != b.max_size;
  }
  if (!desired_differs && !bounds_differ) return Status::Ok();
  ScalingConfig want;
  if (Status s = ScalingConfigOf(mp, b, &want); !s.ok()) return s;
  if (Status s = Call(imp.meta.name, "eks:UpdateNodegroupConfig"); !s.ok()) return s;
  if (Status s = ng->UpdateConfig(want); !s.ok()) {
    return Wrap(s, "failed to update nodegroup config: ");
  }
  return Status::Ok();
}

// setStatus (§1.3, ng:582-628): ready in ACTIVE and UPDATING; the list and
// replicas rebuilt from every instance of the group's ASG only then, kept
// otherwise; patched at once.
Status AwsManagedMachinePoolReconciler::SetStatus(const InfraMachinePool& imp, const Pool& pool) {
  const NodeGroup& ng = *pool.node_group;
  bool ready = imp.status.ready.value_or(false);
  std::optional<std::string> failure;
  switch (ng.status()) {
    case NodegroupStatus::kDeleting:
    case NodegroupStatus::kCreating:
      ready = false;
      break;
    case NodegroupStatus::kCreateFailed:
    case NodegroupStatus::kDeleteFailed:
      ready = false;
      failure = std::string("EKS nodegroup ") + imp.meta.name + " failed with status " +
                NodegroupStatusName(ng.status());
      break;
    case NodegroupStatus::kActive:
    case NodegroupStatus::kUpdating:
      ready = true;
      break;
    case NodegroupStatus::kAbsent:
    case NodegroupStatus::kDegraded:
      return Status::Internal(std::string("unexpected EKS nodegroup status ") +
                              NodegroupStatusName(ng.status()));
  }
  static const ProviderIDList kNone;
  ProviderIDList ids = imp.spec.provider_id_list.value_or(kNone);
  if (ready && ng.has_asg()) {
    if (Status s = Call(imp.meta.name, "autoscaling:DescribeAutoScalingGroups"); !s.ok()) return s;
    std::vector<SharedString> fresh;
    const std::vector<const Instance*> described = ng.Describe();
    fresh.reserve(described.size());
    for (const Instance* inst : described) fresh.push_back(inst->provider_id);
    ids = std::move(fresh);
  }
  if (failure && imp.status.failure_message != failure) {
    InfraMachinePool next = imp;
    next.status.failure_message = failure;
    next.status.ready = false;
    return client_->InfraMachinePools().Patch(imp, &next);
  }
  return PatchInfraPoolReport(
      &client_->InfraMachinePools(), imp,
      {.provider_ids = std::move(ids), .ready = ready, .provisioned = ready});
}

// §1.9: describe; if the group exists, DeleteNodegroup and block in the
// NodegroupDeleted waiter; then the finalizer goes.
Status AwsManagedMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp,
                                                        const Pool& pool, Result* result) {
  NodeGroup* ng = pool.node_group;
  if (Status s = Call(imp.meta.name, "eks:DescribeNodegroup"); !s.ok()) return s;
  if (ng->status() == NodegroupStatus::kAbsent) return RemoveFinalizer(imp);
  if (Status s = Call(imp.meta.name, "eks:DeleteNodegroup"); !s.ok()) return s;
  if (Status s = ng->Delete(); !s.ok() && s.code() != Status::Code::kNotFound) {
    return Wrap(s, "failed to delete nodegroup: ");
  }
  return StartWait({imp.meta.Key()}, true, pool, result);
}

Status AwsManagedMachinePoolReconciler::RemoveFinalizer(const InfraMachinePool& imp) {
  if (!HasFinalizer(imp.meta, kAwsManagedMachinePoolFinalizer)) return Status::Ok();
  InfraMachinePool next = imp;
  std::erase(next.meta.finalizers, std::string(kAwsManagedMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

Status AwsManagedMachinePoolReconciler::StartWait(const Request& req, bool deleted,
                                                  const Pool& pool, Result* result) {
  waiters_[req.key.name] = Waiter{.deleted = deleted, .start = clock_->Now(), .attempt = 0};
  return Poll(req, pool, result);
}

// One poll of the SDK waiter (§1.4, §1.9): success, failure, or the next
// delay, for which the worker stays held.
Status AwsManagedMachinePoolReconciler::Poll(const Request& req, const Pool& pool, Result* result) {
  Waiter& w = waiters_.at(req.key.name);
  ++w.attempt;
  const NodegroupStatus st = pool.node_group->status();
  const Status described = Call(req.key.name, "eks:DescribeNodegroup");
  const bool deleted = w.deleted;
  const auto done = [&](Status waited) {
    waiters_.erase(req.key.name);
    return deleted ? AfterDeleted(req, waited) : AfterActive(req, pool, waited);
  };
  if (!described.ok()) return done(described);
  if (deleted) {
    if (st == NodegroupStatus::kAbsent) return done(Status::Ok());
    if (st == NodegroupStatus::kDeleteFailed) {
      return done(Status::Internal("waiter state transitioned to Failure"));
    }
  } else {
    if (st == NodegroupStatus::kActive) return done(Status::Ok());
    if (st == NodegroupStatus::kCreateFailed) {
      return done(Status::Internal("waiter state transitioned to Failure"));
    }
    if (st == NodegroupStatus::kAbsent) {
      return done(Status::NotFound("ResourceNotFoundException: No node group found for name: " +
                                   req.key.name));
    }
  }
  const Duration remaining = pool.node_group->options().max_wait - (clock_->Now() - w.start);
  const Duration delay =
      WaiterExhausted(remaining)
          ? 0
          : ComputeDelay(w.attempt, kWaiterMinDelay, kWaiterMaxDelay, remaining, pool.waiter_rng);
  // A delay of 0 (the budget left is exactly the minimum) is one more poll
  // at once, after which real time has eaten into the minimum: the end.
  if (delay <= 0) {
    if (!WaiterExhausted(remaining)) Call(req.key.name, "eks:DescribeNodegroup");
    return done(Status::Timeout(std::string("exceeded max wait time for ") +
                                (deleted ? "NodegroupDeleted" : "NodegroupActive") + " waiter"));
  }
  result->hold_for = delay;
  return Status::Ok();
}

// ng:538-561 and :643-651: on success the group is described again and
// setStatus runs again; on failure `ng` is nil, which the replicas-managed-by
// branch dereferences before the error is returned (§1.4 "Defect").
Status AwsManagedMachinePoolReconciler::AfterActive(const Request& req, const Pool& pool,
                                                    const Status& waited) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return waited;
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  std::shared_ptr<const MachinePool> mp =
      owner == nullptr ? nullptr : client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (!waited.ok()) {
    if (mp != nullptr && mp->meta.annotations.count(kReplicasManagedBy)) {
      return NilDereference("reconcileNodegroup: ng.ScalingConfig after a failed waiter");
    }
    return Wrap(waited, "failed to wait for nodegroup to be active: ");
  }
  if (Status s = Call(req.key.name, "eks:DescribeNodegroup"); !s.ok()) return s;
  if (Status s = SetStatus(*imp, pool); !s.ok()) return s;
  if (mp == nullptr) return Status::Ok();
  imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  return ReconcileChanges(*imp, *mp, pool);
}

Status AwsManagedMachinePoolReconciler::AfterDeleted(const Request& req, const Status& waited) {
  if (!waited.ok()) {
    return Wrap(waited, "failed to wait for nodegroup deletion: ");
  }
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  return RemoveFinalizer(*imp);
}

Status AwsManagedMachinePoolReconciler::Call(const std::string& pool, const char* api) {
  return EksCall(throttle_, rec_, clock_->Now(), pool, api);
}

}  // namespace mpsim::eks
