// What each cloud's instance state names mean for a report: the timeline
// keeps the cloud's own words (InService, RUNNING, Succeeded ...), reports
// need to know which of them mean "running" and which mean "gone".
#pragma once

#include <string_view>

namespace mpsim {

enum class InstanceStage {
  kCreating,  // accepted by the cloud, not running yet (Pending, PROVISIONING, Creating)
  kRunning,   // running, OS booting or booted (InService, RUNNING, Succeeded)
  kDeleting,  // being deleted (Terminating, STOPPING, Deleting)
  kGone,      // deleted (Terminated, TERMINATED, Deleted)
  kFailed,    // the cloud gave up on it (VMSS Failed)
  kOther,     // a name this table does not know
};

// The stage of `state`, a value of an Instance "state" row of any provider
// (test, asg, mig, vmss).
InstanceStage StageOf(std::string_view state);

}  // namespace mpsim
