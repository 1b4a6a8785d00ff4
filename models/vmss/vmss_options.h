// What one pool's `provider.vmss` block says, in the model's own types: the
// scale set's zones, capacity, delays and faults, the ARM throttling buckets
// and the CAPZ strategy and behaviour knobs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "api/time.h"
#include "models/vmss/vmss.pb.h"
#include "sim/distribution.h"

namespace mpsim::vmss {

// Which CAPZ setProvisioningStateAndConditions to run on a Failed scale set
// (docs/reference/providers.md §2.6.1): HEAD sets ready=false (PR #6488), v1.26.0 keeps it.
enum class FailedBehavior { kHead, kV1_26_0 };
enum class DeletePolicy { kOldest, kNewest, kRandom };
// Which CAPZ SelectMachinesToDelete picks the victims (docs/reference/providers.md §2.6.3):
// HEAD (commits 0ef04d737, 5db8772d2) also counts unready machines as
// over-provision, protecting a rollout's unready replacements; v1.26.0 counts
// ready machines only.
enum class DeleteSelection { kHead, kV1_26_0 };
// Uniform VMs are named by instance ID under their scale set; Flexible VMs
// are plain virtual machines (docs/reference/providers.md §2.5).
enum class OrchestrationMode { kUniform, kFlexible };

struct VmssOptions {
  std::vector<std::string> zones;
  std::map<std::string, int32_t> capacity;  // zone -> VMs available; absent: unlimited
  DistSpec launch_delay;                    // VM Creating -> Succeeded
  DistSpec delete_delay;                    // VM Deleting -> gone
  DistSpec operation_delay;                 // PUT accepted -> operation visible
  DistSpec allocation_failure_delay;        // VM Creating -> Failed (AllocationFailed)
  double allocation_failed_probability = 0;
  FailedBehavior failed_behavior = FailedBehavior::kHead;
  std::string max_surge = "1";        // int or "N%", rounded up
  std::string max_unavailable = "0";  // int or "N%", rounded down
  DeletePolicy delete_policy = DeletePolicy::kOldest;
  DeleteSelection delete_selection = DeleteSelection::kHead;
  int32_t arm_read_burst = 250;
  double arm_reads_per_second = 25;
  int32_t arm_write_burst = 200;
  double arm_writes_per_second = 10;
  Duration drain_time = 0;                  // Machine deletion drains the Node before the VM delete
  std::string resource_group = "mpsim-rg";  // as its owner spelt it
  // The Node's providerID keeps the resource group's case, as before
  // kubernetes PR #74882 (CAPZ lowercases it: a mismatch, CAPZ #2817).
  bool node_keeps_resource_group_case = false;
  OrchestrationMode orchestration_mode = OrchestrationMode::kUniform;
  Duration terminate_notification_timeout = 0;  // 0: no terminate notification
  // AzureMachinePoolMachines, their controller and owner Machines as objects
  // (docs/reference/providers.md §2.6.2), rather than folded into the AzureMachinePool's.
  bool machine_pool_machines = false;
};

VmssOptions ToVmssOptions(const proto::VmssProvider& p);

}  // namespace mpsim::vmss
