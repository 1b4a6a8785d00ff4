// What one pool's `provider.aks` block says, in the model's own types: the
// agent pool's zones, capacity, delays, faults and upgrade settings, ASO's
// timings, the ARM buckets and which CAPZ kind drives the pool.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "api/time.h"
#include "models/aks/aks.pb.h"
#include "scenario/scenario.pb.h"
#include "sim/distribution.h"

namespace mpsim::aks {

inline constexpr const char* kAzureManagedMachinePoolKind = "AzureManagedMachinePool";
inline constexpr const char* kAzureAsoManagedMachinePoolKind = "AzureASOManagedMachinePool";

// One scripted decision of AKS's cluster autoscaler.
struct AutoscalerStep {
  Time at = 0;
  int32_t count = 0;
};

struct AksOptions {
  std::string kind = kAzureManagedMachinePoolKind;
  std::string agent_pool_name;      // the Azure name (`pool0`)
  std::string node_resource_group;  // as AKS spells it (`MC_...`)
  std::vector<std::string> zones;
  std::map<std::string, int32_t> capacity;  // zone -> VMs available; absent: unlimited
  DistSpec launch_delay;                    // VM Creating -> Succeeded, and a reimage
  DistSpec delete_delay;                    // VM Deleting -> gone
  DistSpec operation_delay;                 // AKS operation accepted -> the scale set changes
  DistSpec aso_reconcile_delay;             // ASO: a change seen -> its status written
  Duration aso_sync_period = kHour;         // ASO's re-read of a deployed resource
  Duration aso_blocked_retry = kMinute;     // ASO's retry of a blocked or failed reconcile
  std::string max_surge = "10%";            // upgradeSettings, rounded up
  std::string max_unavailable = "0";        // upgradeSettings, rounded up
  Duration drain_timeout = 30 * kMinute;    // per node; exceeded: the upgrade fails
  Duration node_soak_duration = 0;          // after a drain, before the reimage
  Duration drain_time = 0;                  // how long one node's drain takes
  DistSpec allocation_failure_delay;        // VM Creating -> Failed
  double allocation_failed_probability = 0;
  int32_t arm_read_burst = 250;
  double arm_reads_per_second = 25;
  int32_t arm_write_burst = 200;
  double arm_writes_per_second = 10;
  bool autoscaling = false;  // enableAutoScaling
  int32_t min_count = 0;
  int32_t max_count = 1000;
  std::vector<AutoscalerStep> autoscaler_steps;
};

// The Azure name of a pool's agent pool when the block names none: the
// pool's letters and digits, lowercased, cut to 12 (AKS's rule for Linux pools).
std::string DefaultAgentPoolName(const std::string& pool);

AksOptions ToAksOptions(const proto::MachinePoolSpec& pool);

// An integer ("3") or a percentage of `of` ("10%"), rounded up, as AKS reads
// maxSurge and maxUnavailable (docs/reference/azure-managed.md §3.3).
int32_t ScaledUp(const std::string& value, int32_t of);

}  // namespace mpsim::aks
