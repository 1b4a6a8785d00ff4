#include "app/report/instance_states.h"

#include <array>
#include <utility>

namespace mpsim {
namespace {

// test provider, AWS ASG lifecycle states, GCE instance status, Azure VMSS
// provisioning states, OCI instance and OKE node lifecycle states. New
// clouds add their names here.
constexpr std::array<std::pair<std::string_view, InstanceStage>, 25> kStates{{
    {"Launching", InstanceStage::kCreating},
    {"Pending", InstanceStage::kCreating},
    {"PROVISIONING", InstanceStage::kCreating},
    {"STAGING", InstanceStage::kCreating},
    {"Creating", InstanceStage::kCreating},
    {"CREATING", InstanceStage::kCreating},
    {"Running", InstanceStage::kRunning},
    {"InService", InstanceStage::kRunning},
    // An ASG launch hook holds a running, booting instance in Pending:Wait.
    {"Pending:Wait", InstanceStage::kRunning},
    {"Pending:Proceed", InstanceStage::kRunning},
    {"RUNNING", InstanceStage::kRunning},
    {"Succeeded", InstanceStage::kRunning},
    {"ACTIVE", InstanceStage::kRunning},
    {"Deleting", InstanceStage::kDeleting},
    {"Terminating", InstanceStage::kDeleting},
    {"Terminating:Wait", InstanceStage::kDeleting},
    {"Terminating:Proceed", InstanceStage::kDeleting},
    {"STOPPING", InstanceStage::kDeleting},
    {"TERMINATING", InstanceStage::kDeleting},
    {"DELETING", InstanceStage::kDeleting},
    {"Terminated", InstanceStage::kGone},
    {"TERMINATED", InstanceStage::kGone},
    {"Deleted", InstanceStage::kGone},
    {"DELETED", InstanceStage::kGone},
    {"Failed", InstanceStage::kFailed},
}};

}  // namespace

InstanceStage StageOf(std::string_view state) {
  for (const auto& [name, stage] : kStates) {
    if (name == state) return stage;
  }
  return InstanceStage::kOther;
}

}  // namespace mpsim
