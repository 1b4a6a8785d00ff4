// The PROACTIVE rollout of a new instance template (docs/reference/providers.md §3.2): at
// any time at most targetSize + maxSurge instances not being deleted and at
// most maxUnavailable of the target size out of service, so maxSurge +
// maxUnavailable instances are updated at once. An instance being deleted
// counts as out of service, not as an instance.
#include <string>
#include <vector>

#include "models/mig/managed_instance_group.h"

namespace mpsim::mig {

void ManagedInstanceGroup::UpdateStep() {
  if (deleting_) return;
  const UpdateBudget budget = BudgetFor(opts_.update, target_);
  if (UpdatesInPlace(opts_.update)) {
    UpdateInPlace(budget);
  } else {
    Substitute(budget);
  }
  for (const auto& [name, mi] : instances_) {
    if (mi.action != Action::kDeleting && mi.template_version != template_version_) return;
  }
  updating_ = false;
  if (Active() > target_) ScaleDown(Active() - target_);
}

// SUBSTITUTE with REPLACE: outdated RUNNING VMs go while availability stays at
// targetSize - maxUnavailable or above; new VMs (new random names) come up to
// targetSize + maxSurge until the target size is all of the new template.
void ManagedInstanceGroup::Substitute(const UpdateBudget& budget) {
  int32_t available = Available();
  int32_t fresh = 0;
  std::vector<std::string> victims;
  for (const ManagedInstance* p : order_.Members()) {
    const ManagedInstance& mi = *p;
    if (mi.action == Action::kDeleting) continue;
    if (mi.template_version == template_version_) {
      ++fresh;
    } else if (mi.action == Action::kNone && mi.status == VmStatus::kRunning &&
               available - 1 >= target_ - budget.unavailable) {
      victims.push_back(mi.name);
      --available;
    }
  }
  for (const std::string& v : victims) DeleteInstance(v);
  for (int32_t active = Active(); active < target_ + budget.surge && fresh < target_; ++active) {
    Create();
    ++fresh;
  }
}

// RECREATE, REFRESH and RESTART: no surge, up to maxUnavailable outdated VMs
// at once are taken out of service and updated where they stand.
void ManagedInstanceGroup::UpdateInPlace(const UpdateBudget& budget) {
  int32_t available = Available();
  // A copy: starting an in-place update must not see the order change.
  const std::vector<ManagedInstance*> members = order_.Members();
  for (ManagedInstance* p : members) {
    if (available - 1 < target_ - budget.unavailable) return;
    ManagedInstance& mi = *p;
    if (mi.action != Action::kNone || mi.status != VmStatus::kRunning ||
        mi.template_version == template_version_) {
      continue;
    }
    StartInPlace(&mi);
    --available;
  }
}

// REPLACE with RECREATE: the VM is deleted and created again under its name.
// REFRESH applies the template without a restart (one reactionDelay); RESTART
// restarts the VM (one launchDelay). Both keep the VM and its Node.
void ManagedInstanceGroup::StartInPlace(ManagedInstance* mi) {
  const std::string name = mi->name;
  const uint32_t epoch = mi->vm_epoch;
  switch (opts_.update.minimal_action) {
    case MinimalAction::kReplace:
      Row(*mi, "currentAction", "NONE", "RECREATING");
      Row(*mi, "state", "RUNNING", "STOPPING");
      mi->action = Action::kRecreating;
      mi->status = VmStatus::kStopping;
      loop_->After(Sample(opts_.delete_delay, delete_rng_),
                   [this, name, epoch] { Recreate(name, epoch); });
      return;
    case MinimalAction::kRefresh:
      Row(*mi, "currentAction", "NONE", "REFRESHING");
      mi->action = Action::kRefreshing;
      loop_->After(Sample(opts_.reaction_delay, react_rng_),
                   [this, name, epoch] { FinishInPlace(name, epoch); });
      return;
    case MinimalAction::kRestart:
      Row(*mi, "currentAction", "NONE", "RESTARTING");
      mi->action = Action::kRestarting;
      loop_->After(Sample(opts_.launch_delay, launch_rng_),
                   [this, name, epoch] { FinishInPlace(name, epoch); });
      return;
  }
}

// The instance runs the new template; its boot disk, and so the kubelet
// version its Node reports, is the one it booted with (docs/defaults.md).
void ManagedInstanceGroup::FinishInPlace(const std::string& name, uint32_t epoch) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.vm_epoch != epoch) return;
  ManagedInstance& mi = it->second;
  if (mi.action != Action::kRefreshing && mi.action != Action::kRestarting) return;
  Row(mi, "currentAction", mi.action == Action::kRefreshing ? "REFRESHING" : "RESTARTING", "NONE");
  mi.action = Action::kNone;
  mi.template_version = template_version_;
  UpdateStep();
}

void ManagedInstanceGroup::Recreate(const std::string& name, uint32_t epoch) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.vm_epoch != epoch) return;
  ManagedInstance& mi = it->second;
  if (mi.action != Action::kRecreating) return;
  Row(mi, "state", "STOPPING", "TERMINATED");
  workload_->InstanceGone(name);
  mi.status = VmStatus::kNone;
  --vms_;
  Row(mi, "currentAction", "RECREATING", "CREATING");
  mi.action = Action::kCreating;
  TryCreate(name);
}

int32_t ManagedInstanceGroup::Available() const {
  int32_t n = 0;
  for (const auto& [name, mi] : instances_) {
    n += mi.action == Action::kNone && mi.status == VmStatus::kRunning;
  }
  return n;
}

}  // namespace mpsim::mig
