#include "models/asg/asg_options.h"

#include "sim/distribution_proto.h"

namespace mpsim::asg {
namespace {

LifecycleHook ToHook(const proto::AsgLifecycleHook& h) {
  LifecycleHook out;
  out.configured = true;
  out.heartbeat_timeout = h.heartbeat_timeout();
  out.default_result =
      h.default_result() == "CONTINUE" ? HookResult::kContinue : HookResult::kAbandon;
  if (h.has_complete_after()) out.complete_after = ToDistSpec(h.complete_after());
  return out;
}

ThrottleLimits ToThrottleLimits(const proto::AsgApiThrottling& t) {
  return {t.enabled(),         t.describe_burst(),      t.describe_refill(),     t.mutating_burst(),
          t.mutating_refill(), t.run_instances_burst(), t.run_instances_refill()};
}

}  // namespace

AsgOptions ToAsgOptions(const proto::AsgProvider& p) {
  AsgOptions o;
  o.zones.assign(p.zones().begin(), p.zones().end());
  o.capacity.insert(p.capacity().begin(), p.capacity().end());
  o.launch_delay = ToDistSpec(p.launch_delay());
  o.delete_delay = ToDistSpec(p.delete_delay());
  o.reaction_delay = ToDistSpec(p.reaction_delay());
  o.launch_retry = ToDistSpec(p.launch_retry());
  o.ice_probability = p.ice_probability();
  o.missing_az = p.missing_az();
  o.reorder_probability = p.reorder_probability();
  o.min_healthy_percentage = p.min_healthy_percentage();
  o.instance_warmup = p.instance_warmup();
  for (const proto::AsgLifecycleHook& h : p.lifecycle_hooks()) {
    (h.transition() == "launching" ? o.launch_hook : o.termination_hook) = ToHook(h);
  }
  o.spot_interruption_rate = p.spot_interruption_rate();
  o.api_throttling = ToThrottleLimits(p.api_throttling());
  o.machine_pool_machines = p.machine_pool_machines();
  return o;
}

}  // namespace mpsim::asg
