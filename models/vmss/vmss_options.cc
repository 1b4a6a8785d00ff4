#include "models/vmss/vmss_options.h"

#include "sim/distribution_proto.h"

namespace mpsim::vmss {
namespace {

DeletePolicy ToDeletePolicy(const std::string& s) {
  if (s == "Newest") return DeletePolicy::kNewest;
  if (s == "Random") return DeletePolicy::kRandom;
  return DeletePolicy::kOldest;
}

}  // namespace

VmssOptions ToVmssOptions(const proto::VmssProvider& p) {
  VmssOptions o;
  o.zones.assign(p.zones().begin(), p.zones().end());
  o.capacity.insert(p.capacity().begin(), p.capacity().end());
  o.launch_delay = ToDistSpec(p.launch_delay());
  o.delete_delay = ToDistSpec(p.delete_delay());
  o.operation_delay = ToDistSpec(p.operation_delay());
  o.allocation_failure_delay = ToDistSpec(p.allocation_failure_delay());
  o.allocation_failed_probability = p.allocation_failed_probability();
  o.failed_behavior =
      p.failed_behavior() == "v1.26.0" ? FailedBehavior::kV1_26_0 : FailedBehavior::kHead;
  o.max_surge = p.max_surge();
  o.max_unavailable = p.max_unavailable();
  o.delete_policy = ToDeletePolicy(p.delete_policy());
  o.delete_selection =
      p.delete_selection() == "v1.26.0" ? DeleteSelection::kV1_26_0 : DeleteSelection::kHead;
  o.arm_read_burst = p.arm_read_burst();
  o.arm_reads_per_second = p.arm_reads_per_second();
  o.arm_write_burst = p.arm_write_burst();
  o.arm_writes_per_second = p.arm_writes_per_second();
  o.drain_time = p.drain_time();
  o.resource_group = p.resource_group();
  o.node_keeps_resource_group_case = p.node_resource_group_case() == "original";
  o.orchestration_mode = p.orchestration_mode() == "Flexible" ? OrchestrationMode::kFlexible
                                                              : OrchestrationMode::kUniform;
  o.terminate_notification_timeout = p.terminate_notification_timeout();
  o.machine_pool_machines = p.machine_pool_machines();
  return o;
}

}  // namespace mpsim::vmss
