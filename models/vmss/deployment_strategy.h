// CAPZ's MachinePool deployment strategy (machinepool_deployment_strategy.go,
// docs/reference/providers.md §2.2 and §2.6.3): surge and unavailability from an int or a
// percentage, and which machines a pass deletes (SelectMachinesToDelete as
// v1.26.0 and as HEAD have it), machines marked delete-machine first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/vmss/vmss_options.h"
#include "sim/random.h"

namespace mpsim::vmss {

// intstr.GetScaledValueFromIntOrPercent: "N" is N; "P%" is P% of `total`,
// rounded up or down. REQUIRES: `value` passed ValidIntOrPercent.
int32_t ScaledValue(const std::string& value, int32_t total, bool round_up);
// True for a non-negative integer or a percentage from 0% to 100%.
bool ValidIntOrPercent(const std::string& value);

// One AzureMachinePoolMachine as the selector sees it.
struct MachineView {
  uint64_t id = 0;           // instance ID: creation order, never reused
  bool ready = false;        // status.ready (its Node is Ready) and Succeeded
  bool failed = false;       // provisioningState Failed
  bool deleting = false;     // provisioningState Deleting
  bool latest_model = true;  // on the scale set's latest model (image only)
  // cluster.x-k8s.io/delete-machine on it or on its owner Machine (the
  // autoscaler's mark, docs/reference/providers.md §2.6.3 "Delete-machine").
  bool annotated = false;
  // It or its owner Machine is already being deleted: it counts only as
  // annotated, since CAPZ's annotated set keeps machines being deleted.
  bool going = false;
};

// The machines one pass deletes as CAPZ v1.26.0 picks them, `machines`
// oldest first. Failed and deleting machines first; else, if any machine is
// annotated, every annotated one and nothing else.
std::vector<uint64_t> SelectMachinesToDelete(int32_t desired, const std::string& max_unavailable,
                                             DeletePolicy policy,
                                             const std::vector<MachineView>& machines, Rng* rng);

// HEAD's rolloutInProgress (commit 5db8772d2): not a scale-down below the
// replicas last reconciled, and some machine still on an older model.
bool RolloutInProgress(int32_t desired, int32_t last_reconciled_replicas, bool all_latest_model);

// The machines one pass deletes as CAPZ HEAD picks them (commits 0ef04d737,
// 5db8772d2), `machines` oldest first: failed, deleting and annotated
// machines as v1.26.0; over-provision counts unready machines too, less the
// rollout's protected ones.
std::vector<uint64_t> SelectMachinesToDeleteHead(int32_t desired,
                                                 const std::string& max_unavailable,
                                                 DeletePolicy policy,
                                                 const std::vector<MachineView>& machines,
                                                 bool rollout_in_progress, Rng* rng);

}  // namespace mpsim::vmss
