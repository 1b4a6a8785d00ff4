// What a cloud's instance state names mean for a report: the timeline keeps
// the cloud's own words (InService, RUNNING, Succeeded ...), reports need to
// know which of them mean "running" and which mean "gone". Each provider
// lists the names its model writes (ProviderRegistration::instance_states).
#pragma once

#include <string_view>

namespace mpsim {

enum class InstanceStage {
  kCreating,  // accepted by the cloud, not running yet (Pending, PROVISIONING, Creating)
  kRunning,   // running, OS booting or booted (InService, RUNNING, Succeeded)
  kDeleting,  // being deleted (Terminating, STOPPING, Deleting)
  kGone,      // deleted (Terminated, TERMINATED, Deleted)
  kFailed,    // the cloud gave up on it (VMSS Failed)
  kOther,     // a name no provider lists
};

// One value of a provider's Instance "state" timeline rows and its stage.
struct InstanceStateName {
  std::string_view state;
  InstanceStage stage;
};

}  // namespace mpsim
