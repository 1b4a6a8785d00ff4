#include "models/mig/managed_instance_group.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/mig/instance_url.h"

namespace mpsim::mig {
namespace {

const char* ActionName(Action a) {
  switch (a) {
    case Action::kCreating:
      return "CREATING";
    case Action::kNone:
      return "NONE";
    case Action::kDeleting:
      return "DELETING";
    case Action::kRefreshing:
      return "REFRESHING";
    case Action::kRestarting:
      return "RESTARTING";
    case Action::kRecreating:
      return "RECREATING";
    case Action::kVerifying:
      return "VERIFYING";
  }
  return "UNKNOWN";
}

const char* StatusName(VmStatus s) {
  switch (s) {
    case VmStatus::kNone:
      return "";
    case VmStatus::kProvisioning:
      return "PROVISIONING";
    case VmStatus::kStaging:
      return "STAGING";
    case VmStatus::kRunning:
      return "RUNNING";
    case VmStatus::kStopping:
      return "STOPPING";
    case VmStatus::kTerminated:
      return "TERMINATED";
  }
  return "UNKNOWN";
}

// MIG instance names: baseInstanceName (the pool) and a random-looking suffix.
std::string InstanceName(const std::string& pool, uint64_t n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "-%04llx", static_cast<unsigned long long>(n));
  return pool + buf;
}

}  // namespace

ManagedInstanceGroup::ManagedInstanceGroup(EventLoop* loop, WorkloadCluster* workload,
                                           Recorder* rec, std::string pool, MigOptions opts,
                                           uint64_t seed)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(std::move(opts)),
      base_(opts_.base_instance_name.empty() ? pool_ : opts_.base_instance_name),
      launch_rng_(StreamFor(seed, "mig/" + base_ + "/launch")),
      delete_rng_(StreamFor(seed, "mig/" + base_ + "/delete")),
      react_rng_(StreamFor(seed, "mig/" + base_ + "/react")),
      fault_rng_(StreamFor(seed, "mig/" + base_ + "/faults")),
      preempt_rng_(StreamFor(seed, "mig/" + base_ + "/preempt")),
      verify_rng_(StreamFor(seed, "mig/" + base_ + "/autohealing")) {}

void ManagedInstanceGroup::Insert(const std::string& zone, int32_t target,
                                  const std::string& kubelet_version,
                                  std::string instance_template) {
  exists_ = true;
  zone_ = zone;
  kubelet_version_ = kubelet_version;
  instance_template_ = std::move(instance_template);
  Resize(target);
}

void ManagedInstanceGroup::Resize(int32_t target) {
  target_ = target;
  ScheduleConverge(Sample(opts_.reaction_delay, react_rng_));
}

void ManagedInstanceGroup::SetInstanceTemplate(const std::string& kubelet_version,
                                               std::string instance_template) {
  ++template_version_;
  kubelet_version_ = kubelet_version;
  rec_->Change(loop_->Now(), "InstanceGroupManager", pool_, "instanceTemplate", instance_template_,
               instance_template, pool_);
  instance_template_ = std::move(instance_template);
  if (!opts_.update.proactive) return;
  updating_ = true;
  UpdateStep();
}

void ManagedInstanceGroup::DeleteInstances(const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    auto it = instances_.find(n);
    if (it == instances_.end() || it->second.action == Action::kDeleting) continue;
    DeleteInstance(n);
    --target_;
  }
}

void ManagedInstanceGroup::Delete() {
  deleting_ = true;
  target_ = 0;
  std::vector<std::string> names;
  for (const ManagedInstance* mi : order_.Members()) names.push_back(mi->name);
  for (const std::string& n : names) DeleteInstance(n);
  if (instances_.empty()) exists_ = false;
}

// Preemption: the VM gets its 30 s notice (ACPI soft-off, STOPPING) and then
// stops; the group recreates it under the same name (docs/reference/providers.md §3, the
// preemption row; the 30 s figure is unverified there).
void ManagedInstanceGroup::Kill(const std::string& name) { Preempt(name, "instance.preempted"); }

void ManagedInstanceGroup::Preempt(const std::string& name, const std::string& fault) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.status != VmStatus::kRunning) return;
  rec_->Fault(loop_->Now(), pool_, name, fault);
  it->second.status = VmStatus::kStopping;
  Row(it->second, "state", "RUNNING", "STOPPING");
  const std::string n = name;
  loop_->After(kPreemptionNotice, [this, n] { OnPreempted(n); });
}

// Timers of one VM; a VM recreated under the same name gets its own, and the
// old ones find another epoch and do nothing.
void ManagedInstanceGroup::SchedulePreemptions(const ManagedInstance& mi) {
  const std::string name = mi.name;
  const uint32_t epoch = mi.vm_epoch;
  auto preempt = [this, name, epoch](const char* fault) {
    return [this, name, epoch, fault] {
      auto it = instances_.find(name);
      if (it != instances_.end() && it->second.vm_epoch == epoch) Preempt(name, fault);
    };
  };
  if (opts_.preemptible) loop_->After(kPreemptibleMaxRuntime, preempt("instance.preempted24h"));
  if (opts_.preemption_probability <= 0) return;
  // A constant hazard h with 1 - exp(-h * 1 h) = p, so that a VM survives any
  // one hour of running with probability 1 - p; drawn by inversion.
  const double per_hour = -std::log1p(-opts_.preemption_probability);
  const double hours = -std::log1p(-preempt_rng_.Uniform01()) / per_hour;
  constexpr double kNeverHours = 1e6;  // beyond any horizon; keeps the Duration in range
  if (hours > kNeverHours) return;
  loop_->After(static_cast<Duration>(std::llround(hours * static_cast<double>(kHour))),
               preempt("instance.preempted"));
}

// The stopped VM stays: TERMINATED, still listed by listInstances(ALL) under
// its URL, its capacity released. After the group's reaction delay it is
// repaired: deleted and created again under its name (docs/reference/providers.md §3.1,
// §3.3 preemption row).
void ManagedInstanceGroup::OnPreempted(const std::string& name) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.status != VmStatus::kStopping) return;
  rec_->Change(loop_->Now(), "Instance", name, "state", "STOPPING", "TERMINATED", pool_);
  workload_->InstanceGone(name);
  it->second.status = VmStatus::kTerminated;
  --vms_;
  const std::string n = name;
  const uint32_t epoch = it->second.vm_epoch;
  loop_->After(Sample(opts_.reaction_delay, react_rng_), [this, n, epoch] { Repair(n, epoch); });
}

void ManagedInstanceGroup::Repair(const std::string& name, uint32_t epoch) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.vm_epoch != epoch) return;
  ManagedInstance& mi = it->second;
  if (mi.status != VmStatus::kTerminated || mi.action == Action::kDeleting) return;
  Row(mi, "currentAction", ActionName(mi.action), "RECREATING");
  mi.status = VmStatus::kNone;
  Row(mi, "currentAction", "RECREATING", "CREATING");
  mi.action = Action::kCreating;
  TryCreate(name);
}

std::vector<const ManagedInstance*> ManagedInstanceGroup::ListInstances() const {
  std::vector<const ManagedInstance*> out;
  for (const ManagedInstance* mi : order_.Members()) {
    if (mi->status != VmStatus::kNone) out.push_back(mi);
  }
  return out;
}

std::vector<const ManagedInstance*> ManagedInstanceGroup::ListManagedInstances() const {
  const std::vector<ManagedInstance*>& members = order_.Members();
  return {members.begin(), members.end()};
}

void ManagedInstanceGroup::ScheduleConverge(Duration delay) {
  if (converge_) return;
  converge_ = loop_->After(delay, [this] {
    converge_.reset();
    Converge();
  });
}

void ManagedInstanceGroup::Converge() {
  if (!exists_ || deleting_) return;
  const int32_t active = Active();
  // A PROACTIVE rollout's surge is allowed above the target, not an excess.
  const int32_t ceiling = target_ + (updating_ ? BudgetFor(opts_.update, target_).surge : 0);
  if (active > ceiling) {
    ScaleDown(active - ceiling);
  } else {
    for (int32_t i = active; i < target_; ++i) Create();
  }
  if (updating_) UpdateStep();
}

void ManagedInstanceGroup::Create() {
  const std::string name = InstanceName(base_, ++next_);
  ManagedInstance mi{
      name, Action::kCreating, VmStatus::kNone, template_version_, kubelet_version_, "", next_};
  ManagedInstance& stored = instances_[name] = mi;
  order_.Append(stored.seq, &stored);
  rec_->Change(loop_->Now(), "Instance", name, "currentAction", "", "CREATING", pool_);
  TryCreate(name);
}

// "If the group fails to create this instance, it will try again until it is
// successful" (listManagedInstances, currentAction CREATING).
void ManagedInstanceGroup::TryCreate(const std::string& name) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.action != Action::kCreating) return;
  auto cap = opts_.capacity.find(zone_);
  const bool full = cap != opts_.capacity.end() && vms_ >= cap->second;
  if (full || fault_rng_.Bernoulli(opts_.stockout_probability)) {
    it->second.last_error = "ZONE_RESOURCE_POOL_EXHAUSTED";
    rec_->Fault(loop_->Now(), pool_, name, "ZONE_RESOURCE_POOL_EXHAUSTED");
    loop_->After(Sample(opts_.stockout_retry, fault_rng_), [this, name] { TryCreate(name); });
    return;
  }
  it->second.last_error.clear();
  ++it->second.vm_epoch;
  it->second.url = SharedString::Pinned(SelfLink(name));  // once per VM
  it->second.status = VmStatus::kProvisioning;
  ++vms_;
  it->second.template_version = template_version_;
  it->second.kubelet_version = kubelet_version_;
  rec_->Change(loop_->Now(), "Instance", name, "state", "", "PROVISIONING", pool_);
  // One draw for the whole launch, split at staging_fraction (docs/defaults.md).
  const Duration launch = Sample(opts_.launch_delay, launch_rng_);
  if (opts_.staging_fraction > 0) {
    const uint32_t epoch = it->second.vm_epoch;
    const auto staging =
        static_cast<Duration>(std::llround(static_cast<double>(launch) * opts_.staging_fraction));
    loop_->After(staging, [this, name, epoch] { OnStaging(name, epoch); });
  }
  loop_->After(launch, [this, name] { OnRunning(name); });
}

void ManagedInstanceGroup::OnStaging(const std::string& name, uint32_t epoch) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.vm_epoch != epoch) return;
  if (it->second.status != VmStatus::kProvisioning) return;
  it->second.status = VmStatus::kStaging;
  Row(it->second, "state", "PROVISIONING", "STAGING");
}

// Drawn only when the fault is on, so other random draws stay as they were.
std::string ManagedInstanceGroup::SelfLink(const std::string& name) {
  if (opts_.malformed_url_probability > 0 &&
      fault_rng_.Bernoulli(opts_.malformed_url_probability)) {
    rec_->Fault(loop_->Now(), pool_, name, "instance.malformedURL");
    return "https://www.googleapis.com/compute/v1/projects/" + opts_.project + "/regions/" + zone_ +
           "/instances/" + name;
  }
  return InstanceUrl(opts_.project, zone_, name);
}

void ManagedInstanceGroup::OnRunning(const std::string& name) {
  auto it = instances_.find(name);
  if (it == instances_.end()) return;
  ManagedInstance& mi = it->second;
  if (mi.status != VmStatus::kProvisioning && mi.status != VmStatus::kStaging) return;
  Row(mi, "state", StatusName(mi.status), "RUNNING");
  mi.status = VmStatus::kRunning;
  if (opts_.autohealing_initial_delay) {
    // VERIFYING: "waits for the autohealing health check to report HEALTHY"
    // (docs/reference/providers.md §3.1); the VM is not yet available to an update.
    Row(mi, "currentAction", "CREATING", "VERIFYING");
    mi.action = Action::kVerifying;
    const uint32_t epoch = mi.vm_epoch;
    loop_->After(Sample(*opts_.autohealing_initial_delay, verify_rng_),
                 [this, name, epoch] { OnVerified(name, epoch); });
  } else {
    Row(mi, "currentAction", "CREATING", "NONE");
    mi.action = Action::kNone;
  }
  // Pinned: the same buffer as CAPG's providerID for this VM (instance_url.cc).
  workload_->InstanceBooted(
      pool_, name, SharedString::Pinned("gce://" + opts_.project + "/" + zone_ + "/" + name),
      mi.kubelet_version);
  SchedulePreemptions(mi);
  if (updating_) UpdateStep();
}

void ManagedInstanceGroup::OnVerified(const std::string& name, uint32_t epoch) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.vm_epoch != epoch) return;
  if (it->second.action != Action::kVerifying) return;
  Row(it->second, "currentAction", "VERIFYING", "NONE");
  it->second.action = Action::kNone;
  if (updating_) UpdateStep();
}

void ManagedInstanceGroup::DeleteInstance(const std::string& name) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.action == Action::kDeleting) return;
  ManagedInstance& mi = it->second;
  Row(mi, "currentAction", ActionName(mi.action), "DELETING");
  mi.action = Action::kDeleting;
  const bool had_vm = mi.status != VmStatus::kNone;
  // A VM stopping for a preemption is already on its way; a TERMINATED one
  // is only deleted.
  if (had_vm && mi.status != VmStatus::kStopping && mi.status != VmStatus::kTerminated) {
    Row(mi, "state", StatusName(mi.status), "STOPPING");
    mi.status = VmStatus::kStopping;
  }
  loop_->After(had_vm ? Sample(opts_.delete_delay, delete_rng_) : 0, [this, name] {
    auto gone = instances_.find(name);
    if (gone == instances_.end()) return;
    if (gone->second.status == VmStatus::kStopping) {
      rec_->Change(loop_->Now(), "Instance", name, "state", "STOPPING", "TERMINATED", pool_);
      --vms_;
    }
    order_.Remove(gone->second.seq);
    instances_.erase(gone);
    workload_->InstanceGone(name);
    if (deleting_ && instances_.empty()) exists_ = false;
  });
}

// The MIG "arbitrarily chooses" victims, weighing VM status and template
// version (resize doc): instances without a VM first, then not yet RUNNING,
// then older templates, then the newest.
void ManagedInstanceGroup::ScaleDown(int32_t count) {
  std::vector<const ManagedInstance*> alive;
  for (const ManagedInstance* mi : order_.Members()) {
    if (mi->action != Action::kDeleting) alive.push_back(mi);
  }
  auto rank = [](const ManagedInstance* m) {
    const int vm = m->status == VmStatus::kNone ? 0 : m->status == VmStatus::kRunning ? 2 : 1;
    return std::tuple(vm, m->template_version, -static_cast<int64_t>(m->seq));
  };
  std::stable_sort(
      alive.begin(), alive.end(),
      [&](const ManagedInstance* a, const ManagedInstance* b) { return rank(a) < rank(b); });
  std::vector<std::string> victims;
  for (int32_t i = 0; i < count && i < static_cast<int32_t>(alive.size()); ++i) {
    victims.push_back(alive[static_cast<size_t>(i)]->name);
  }
  for (const std::string& v : victims) DeleteInstance(v);
}

int32_t ManagedInstanceGroup::Active() const {
  int32_t n = 0;
  for (const auto& [name, mi] : instances_) n += mi.action != Action::kDeleting;
  return n;
}

void ManagedInstanceGroup::Row(const ManagedInstance& mi, const char* field, const char* from,
                               const char* to) {
  rec_->Change(loop_->Now(), "Instance", mi.name, field, from, to, pool_);
}

}  // namespace mpsim::mig
