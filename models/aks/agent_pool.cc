#include "models/aks/agent_pool.h"

#include <algorithm>
#include <vector>

namespace mpsim::aks {

AgentPool::AgentPool(EventLoop* loop, Recorder* rec, std::string pool, ScaleSet* vmss,
                     const AksOptions& opts, uint64_t seed)
    : loop_(loop),
      rec_(rec),
      pool_(std::move(pool)),
      vmss_(vmss),
      opts_(opts),
      op_rng_(StreamFor(seed, "aks/" + pool_ + "/operation")) {
  vmss_->on_change = [this] { Progress(); };
  for (const AutoscalerStep& s : opts_.autoscaler_steps) {
    loop_->At(s.at, [this, n = s.count] { Autoscale(n); });
  }
}

bool AgentPool::AcceptsPut(const std::string& state) {
  return state == "Succeeded" || state == "Failed" || state == "Canceled";
}

// AKS's own validation message is not in the reference; this one names the
// limit (docs/reference/azure-managed.md §3.1).
Status AgentPool::Put(int32_t count, const std::string& version) {
  if (count < 0 || count > kMaxAgentPoolCount) {
    return Status::Invalid("InvalidParameter: agent pool " + opts_.agent_pool_name + " count " +
                           std::to_string(count) + " is outside 0 to " +
                           std::to_string(kMaxAgentPoolCount) + " nodes per agent pool");
  }
  if (exists_ && !AcceptsPut(state_)) {
    return Status::Conflict("OperationNotAllowed: agent pool " + opts_.agent_pool_name + " is " +
                            state_ + "; another operation is in progress");
  }
  error_.clear();
  if (!exists_) {
    op_ = Op::kCreate;
    exists_ = true;
    SetState("Creating");
  } else if (version != version_) {
    op_ = Op::kUpgrade;
    SetState("Upgrading");
  } else if (count != count_ || state_ == "Failed") {
    op_ = Op::kScale;
    SetState("Scaling");
  } else {
    op_ = Op::kUpdate;
    SetState("Updating");
  }
  if (count != count_) {
    rec_->Change(loop_->Now(), "AgentPool", pool_, "count", std::to_string(count_),
                 std::to_string(count), pool_);
  }
  count_ = count;
  if (op_ != Op::kUpgrade) version_ = version;
  started_ = false;
  loop_->After(Sample(opts_.operation_delay, op_rng_), [this, version] {
    if (op_ == Op::kUpgrade) version_ = version;
    Begin();
  });
  return Status::Ok();
}

void AgentPool::Delete() {
  if (!exists_ || op_ == Op::kDelete) return;
  op_ = Op::kDelete;
  started_ = false;
  SetState("Deleting");
  loop_->After(Sample(opts_.operation_delay, op_rng_), [this] { Begin(); });
}

void AgentPool::Begin() {
  started_ = true;
  switch (op_) {
    case Op::kCreate:
      vmss_->Create();
      ScaleTo(count_);
      break;
    case Op::kScale:
      ScaleTo(count_);
      break;
    case Op::kUpgrade: {
      upgrade_surge_ = ScaledUp(opts_.max_surge, count_);
      upgrade_batch_ = std::max(1, upgrade_surge_ + ScaledUp(opts_.max_unavailable, count_));
      for (int32_t i = 0; i < upgrade_surge_; ++i) surge_.insert(vmss_->AddVm(version_));
      break;
    }
    case Op::kDelete:
      vmss_->DeleteAll();
      break;
    case Op::kUpdate:
    case Op::kNone:
      break;
  }
  Progress();
}

// Failed VMs go first (a PUT to a Failed pool retries), then the count is
// met by new VMs or by deleting the highest instance IDs.
void AgentPool::ScaleTo(int32_t n) {
  std::vector<uint64_t> live;
  for (const auto& [id, vm] : vmss_->vms()) {
    if (vm.state == VmState::kFailed) {
      vmss_->DeleteVm(id);
    } else if (vm.state != VmState::kDeleting) {
      live.push_back(id);
    }
  }
  for (auto i = static_cast<int32_t>(live.size()); i < n; ++i) vmss_->AddVm(version_);
  for (auto i = static_cast<int32_t>(live.size()); i > n; --i) vmss_->DeleteVm(live[i - 1]);
}

bool AgentPool::ScaleDone() const {
  return vmss_->count(VmState::kCreating) == 0 && vmss_->count(VmState::kDeleting) == 0;
}

void AgentPool::Progress() {
  if (!started_) return;
  switch (op_) {
    case Op::kCreate:
    case Op::kScale:
      if (ScaleDone()) Done(vmss_->count(VmState::kFailed) > 0 ? "AllocationFailed" : "");
      return;
    case Op::kUpgrade:
      UpgradeStep();
      return;
    case Op::kUpdate:
      Done("");
      return;
    case Op::kDelete:
      if (vmss_->vms().empty()) {
        exists_ = false;
        op_ = Op::kNone;
        count_ = 0;
        SetState("");
        if (on_operation_done) on_operation_done();
      }
      return;
    case Op::kNone:
      return;
  }
}

// One batch at a time: while any VM is being created or reimaged, or any
// node drained, the upgrade waits (docs/reference/azure-managed.md §3.3).
void AgentPool::UpgradeStep() {
  if (draining_ > 0 || vmss_->count(VmState::kCreating) > 0) return;
  if (vmss_->count(VmState::kFailed) > 0) return Done("AllocationFailed");
  std::vector<uint64_t> old;
  for (const auto& [id, vm] : vmss_->vms()) {
    if (vm.state == VmState::kSucceeded && vm.version != version_ && !surge_.count(id)) {
      old.push_back(id);
    }
  }
  if (!old.empty()) {
    const auto n = std::min<int32_t>(upgrade_batch_, static_cast<int32_t>(old.size()));
    for (int32_t i = 0; i < n; ++i) {
      const uint64_t id = old[static_cast<size_t>(i)];
      ++draining_;
      if (opts_.drain_time > opts_.drain_timeout) {
        loop_->After(opts_.drain_timeout, [this] {
          draining_ = 0;
          if (op_ == Op::kUpgrade) Done("UpgradeFailed: drain timeout exceeded");
        });
        return;
      }
      loop_->After(opts_.drain_time + opts_.node_soak_duration, [this, id] {
        if (op_ != Op::kUpgrade || draining_ == 0) return;
        --draining_;
        vmss_->Reimage(id, version_);
        UpgradeStep();
      });
    }
    return;
  }
  // Every node is on the new version: the surge nodes go.
  bool surge_left = false;
  for (uint64_t id : surge_) {
    auto it = vmss_->vms().find(id);
    if (it == vmss_->vms().end()) continue;
    surge_left = true;
    if (it->second.state != VmState::kDeleting) vmss_->DeleteVm(id);
  }
  if (surge_left) return;
  surge_.clear();
  // A count changed in the same PUT is applied after the upgrade (d).
  const auto live = static_cast<int32_t>(vmss_->vms().size());
  if (live != count_) {
    op_ = Op::kScale;
    ScaleTo(count_);
    return Progress();
  }
  Done("");
}

void AgentPool::Done(const std::string& error) {
  op_ = Op::kNone;
  started_ = false;
  error_ = error;
  if (!error.empty()) rec_->Fault(loop_->Now(), pool_, "AgentPool/" + pool_, error);
  SetState(error.empty() ? "Succeeded" : "Failed");
  if (on_operation_done) on_operation_done();
}

// AKS's cluster autoscaler acts on the scale set; the pool's count follows
// at once in AKS, not in ASO's status (docs/reference/azure-managed.md §3.4).
void AgentPool::Autoscale(int32_t n) {
  if (!exists_ || op_ == Op::kDelete) return;
  n = std::clamp(n, opts_.min_count, opts_.max_count);
  if (n == count_) return;
  rec_->Change(loop_->Now(), "AgentPool", pool_, "count", std::to_string(count_), std::to_string(n),
               pool_);
  count_ = n;
  ScaleTo(n);
}

void AgentPool::SetState(const std::string& to) {
  if (to == state_) return;
  rec_->Change(loop_->Now(), "AgentPool", pool_, "provisioningState", state_, to, pool_);
  state_ = to;
}

}  // namespace mpsim::aks
