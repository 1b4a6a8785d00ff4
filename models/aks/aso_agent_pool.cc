#include "models/aks/aso_agent_pool.h"

namespace mpsim::aks {

AsoAgentPool::AsoAgentPool(EventLoop* loop, Recorder* rec, std::string pool, AgentPool* aks,
                           const AksOptions& opts, uint64_t seed)
    : loop_(loop),
      rec_(rec),
      pool_(std::move(pool)),
      aks_(aks),
      opts_(opts),
      rng_(StreamFor(seed, "aks/" + pool_ + "/aso")) {
  aks_->on_operation_done = [this] {
    if (exists_) Schedule(Sample(opts_.aso_reconcile_delay, rng_));
  };
}

void AsoAgentPool::Create(const AsoAgentPoolSpec& spec, const std::string& policy) {
  exists_ = true;
  deleting_ = false;
  spec_ = spec;
  generation_ = 1;
  applied_generation_ = 0;
  policy_ = policy;
  rec_->Change(loop_->Now(), "ManagedClustersAgentPool", pool_, "reconcilePolicy", "", policy,
               pool_);
  Schedule(Sample(opts_.aso_reconcile_delay, rng_));
}

void AsoAgentPool::Update(const AsoAgentPoolSpec& spec, const std::string& policy) {
  if (!exists_ || (spec == spec_ && policy == policy_)) return;
  if (!(spec == spec_)) {
    spec_ = spec;
    ++generation_;
    rejected_ = false;
  }
  if (policy != policy_) {
    rec_->Change(loop_->Now(), "ManagedClustersAgentPool", pool_, "reconcilePolicy", policy_,
                 policy, pool_);
    policy_ = policy;
  }
  Schedule(Sample(opts_.aso_reconcile_delay, rng_));
}

void AsoAgentPool::Delete() {
  if (!exists_ || deleting_) return;
  deleting_ = true;
  Schedule(Sample(opts_.aso_reconcile_delay, rng_));
}

void AsoAgentPool::Schedule(Duration after) {
  const uint64_t mine = ++scheduled_;
  loop_->After(after, [this, mine] {
    if (mine == scheduled_) Reconcile();
  });
}

void AsoAgentPool::Reconcile() {
  if (!exists_) return;
  if (deleting_) {
    if (policy_ == "manage" && aks_->exists()) {
      aks_->Delete();  // its end schedules the next reconcile
      return;
    }
    exists_ = false;
    changed_ = true;
    rec_->Change(loop_->Now(), "ManagedClustersAgentPool", pool_, "reconcilePolicy", policy_, "",
                 pool_);
    return Notify();
  }
  if (policy_ == "skip") {
    if (aks_->exists()) {
      Refresh();
      SetReady(true, "Succeeded", "", "");
    } else {
      SetReady(false, "AzureResourceNotFound", "Warning", "the agent pool does not exist");
    }
  } else {
    ReconcileManaged();
  }
  Notify();
  // The periodic re-read of a deployed resource (AZURE_SYNC_PERIOD).
  if (ready_.status) Schedule(opts_.aso_sync_period);
}

void AsoAgentPool::ReconcileManaged() {
  const std::string& state = aks_->provisioning_state();
  const bool idle = !aks_->exists() || AgentPool::AcceptsPut(state);
  if (!idle) {
    if (awaiting_ && applied_generation_ == generation_) return;  // its own PUT still runs
    SetReady(false, "ReconciliationBlocked", "Warning",
             "agent pool " + opts_.agent_pool_name + " has provisioningState " + state);
    return Schedule(opts_.aso_blocked_retry);
  }
  if (rejected_) return;  // an Error condition waits for a new spec
  if (awaiting_) {        // AKS's operation for ASO's PUT has ended
    awaiting_ = false;
    Refresh();
    if (state == "Failed") {
      SetReady(false, aks_->error(), "Warning", "the agent pool's operation failed");
      return Schedule(opts_.aso_blocked_retry);
    }
  }
  if (aks_->exists() && applied_generation_ == generation_ && state != "Failed") {
    Refresh();
    return SetReady(true, "Succeeded", "", "");
  }
  const int32_t count = spec_.count.value_or(aks_->exists() ? aks_->count() : 1);
  applied_generation_ = generation_;
  if (Status s = aks_->Put(count, spec_.orchestrator_version); !s.ok()) {
    rejected_ = true;
    return SetReady(false, "BadRequest", "Error", s.message());
  }
  awaiting_ = true;
  SetReady(false, "Reconciling", "Info", "the resource is being reconciled");
}

void AsoAgentPool::Refresh() {
  if (status_count_ != aks_->count()) {
    rec_->Change(loop_->Now(), "ManagedClustersAgentPool", pool_, "status.count",
                 status_count_ ? std::to_string(*status_count_) : "", std::to_string(aks_->count()),
                 pool_);
    status_count_ = aks_->count();
    changed_ = true;
  }
  if (status_version_ != aks_->orchestrator_version() ||
      status_state_ != aks_->provisioning_state() ||
      status_autoscaling_ != aks_->enable_auto_scaling()) {
    status_version_ = aks_->orchestrator_version();
    status_state_ = aks_->provisioning_state();
    status_autoscaling_ = aks_->enable_auto_scaling();
    changed_ = true;
  }
}

void AsoAgentPool::SetReady(bool status, const std::string& reason, const std::string& severity,
                            const std::string& message) {
  AsoReady next{.present = true,
                .status = status,
                .reason = reason,
                .severity = severity,
                .observed_generation = generation_,
                .message = message};
  if (next == ready_) return;
  const std::string from =
      ready_.present ? (ready_.status ? "True" : "False/" + ready_.reason) : "";
  const std::string to = status ? "True" : "False/" + reason;
  rec_->Change(loop_->Now(), "ManagedClustersAgentPool", pool_, "Ready", from, to, pool_);
  ready_ = std::move(next);
  changed_ = true;
}

void AsoAgentPool::Notify() {
  if (!changed_) return;
  changed_ = false;
  if (on_status) on_status(owner_);
}

}  // namespace mpsim::aks
