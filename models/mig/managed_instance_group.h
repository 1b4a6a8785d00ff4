// One simulated zonal GCE Managed Instance Group (docs/reference/providers.md §3.1-§3.3):
// a target size carried out by managed instances whose creates may hit zone
// stockouts and are then retried forever, VMs PROVISIONING -> RUNNING ->
// STOPPING -> gone, victims chosen by the MIG on resize-down, and the update
// policy applied when the instance template changes.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/common/launch_order.h"
#include "models/mig/mig_options.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"
#include "util/shared_string.h"

namespace mpsim::mig {

// Preemptible/Spot VMs get about 30 s between notice and stop (docs/reference/providers.md §3).
inline constexpr Duration kPreemptionNotice = 30 * kSecond;
// Preemptible VMs always stop after 24 h (docs/reference/providers.md §3.3, citing
// cloud.google.com/compute/docs/instances/preemptible).
inline constexpr Duration kPreemptibleMaxRuntime = 24 * kHour;

// currentAction; REFRESHING, RESTARTING and RECREATING are a PROACTIVE update
// of the VM where it stands (RECREATING also the repair of a preempted VM);
// VERIFYING waits out the autohealing health check's initial delay.
enum class Action {
  kCreating,
  kNone,
  kDeleting,
  kRefreshing,
  kRestarting,
  kRecreating,
  kVerifying
};
// instanceStatus (docs/reference/providers.md §3.1): PROVISIONING -> STAGING -> RUNNING;
// STOPPING -> TERMINATED. A TERMINATED VM still exists and is listed.
enum class VmStatus { kNone, kProvisioning, kStaging, kRunning, kStopping, kTerminated };

struct ManagedInstance {
  std::string name;
  Action action = Action::kCreating;
  VmStatus status = VmStatus::kNone;  // kNone: no VM exists yet (CREATING)
  int template_version = 1;
  std::string kubelet_version;
  std::string last_error;  // lastAttempt.errors of a failed create
  uint64_t seq = 0;        // creation order, which is the API order
  SharedString url;        // the VM's self link, once the VM exists
  uint32_t vm_epoch = 0;   // VMs created under this name; stale timers check it
};

class ManagedInstanceGroup {
 public:
  ManagedInstanceGroup(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
                       MigOptions opts, uint64_t seed);
  ManagedInstanceGroup(const ManagedInstanceGroup&) = delete;
  ManagedInstanceGroup& operator=(const ManagedInstanceGroup&) = delete;

  bool exists() const { return exists_; }
  int32_t target_size() const { return target_; }
  int template_version() const { return template_version_; }
  const std::string& zone() const { return zone_; }

  // The instanceTemplate the group creates VMs from (its name; empty for a
  // GKE node pool's group, whose templates GKE names).
  const std::string& instance_template() const { return instance_template_; }

  // instanceGroupManagers.insert{targetSize, instanceTemplate}.
  void Insert(const std::string& zone, int32_t target, const std::string& kubelet_version,
              std::string instance_template = "");
  // resize: DONE once scheduled; the group converges afterwards.
  void Resize(int32_t target);
  // setInstanceTemplate: new VMs use it; PROACTIVE also updates the others
  // within the update policy's budget, OPPORTUNISTIC leaves them
  // (docs/reference/providers.md §3.2). A named template is an
  // `InstanceGroupManager <pool> instanceTemplate` row.
  void SetInstanceTemplate(const std::string& kubelet_version, std::string instance_template = "");
  // instanceGroupManagers.deleteInstances: deletes the named instances and
  // lowers the target size by as many (docs/reference/providers.md §3.1).
  void DeleteInstances(const std::vector<std::string>& names);
  // instanceGroupManagers.delete: every VM is deleted, then the group is gone.
  void Delete();
  // The zone preempts a RUNNING VM: STOPPING for the notice, then TERMINATED;
  // the group recreates it under the same name.
  void Kill(const std::string& name);

  // instanceGroups.listInstances(ALL): members whose VM exists, in API order.
  std::vector<const ManagedInstance*> ListInstances() const;
  // listManagedInstances: every managed instance, CREATING ones included.
  std::vector<const ManagedInstance*> ListManagedInstances() const;

 private:
  void ScheduleConverge(Duration delay);
  void Preempt(const std::string& name, const std::string& fault);
  void SchedulePreemptions(const ManagedInstance& mi);
  void OnPreempted(const std::string& name);
  void Repair(const std::string& name, uint32_t epoch);
  void OnStaging(const std::string& name, uint32_t epoch);
  void OnVerified(const std::string& name, uint32_t epoch);
  std::string SelfLink(const std::string& name);
  void Converge();
  void Create();
  void TryCreate(const std::string& name);
  void OnRunning(const std::string& name);
  void DeleteInstance(const std::string& name);
  void ScaleDown(int32_t count);
  // The PROACTIVE rollout (managed_instance_group_update.cc).
  void UpdateStep();
  void Substitute(const UpdateBudget& budget);
  void UpdateInPlace(const UpdateBudget& budget);
  void StartInPlace(ManagedInstance* mi);
  void FinishInPlace(const std::string& name, uint32_t epoch);
  void Recreate(const std::string& name, uint32_t epoch);
  int32_t Available() const;
  int32_t Active() const;
  void Row(const ManagedInstance& mi, const char* field, const char* from, const char* to);

  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  MigOptions opts_;
  std::string base_;  // baseInstanceName
  Rng launch_rng_, delete_rng_, react_rng_, fault_rng_, preempt_rng_, verify_rng_;
  bool exists_ = false;
  bool deleting_ = false;
  std::string zone_;
  int32_t target_ = 0;
  int template_version_ = 1;
  std::string instance_template_;
  std::string kubelet_version_;
  uint64_t next_ = 0;
  bool updating_ = false;  // a PROACTIVE rollout has outdated instances left
  int32_t vms_ = 0;        // managed instances whose VM exists (zone capacity)
  std::optional<EventId> converge_;
  std::map<std::string, ManagedInstance> instances_;
  // API order of instances_ (launch order); a map node's address is stable
  // until erased.
  LaunchOrder<ManagedInstance> order_;
};

}  // namespace mpsim::mig
