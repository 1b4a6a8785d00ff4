#include "models/asg/asg_options.h"

#include "sim/scenario_loader.h"

namespace mpsim::asg {

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
  return o;
}

}  // namespace mpsim::asg
