#include "models/rosa/rosa_options.h"

#include "sim/distribution_proto.h"

namespace mpsim::rosa {

RosaOptions ToRosaOptions(const proto::RosaProvider& p) {
  RosaOptions o;
  if (!p.zones().empty()) o.zone = p.zones(0);
  o.capacity.insert(p.capacity().begin(), p.capacity().end());
  o.launch_delay = ToDistSpec(p.launch_delay());
  o.delete_delay = ToDistSpec(p.delete_delay());
  o.reaction_delay = ToDistSpec(p.reaction_delay());
  o.launch_retry = ToDistSpec(p.launch_retry());
  o.upgrade_start_delay = ToDistSpec(p.upgrade_start_delay());
  o.max_surge = p.max_surge();
  o.max_unavailable = p.max_unavailable();
  o.ice_probability = p.ice_probability();
  const proto::RosaApiThrottling& t = p.api_throttling();
  o.api_throttling = {.enabled = t.enabled(),
                      .describe_burst = t.describe_burst(),
                      .describe_refill = t.describe_refill(),
                      .ocm_burst = t.ocm_burst(),
                      .ocm_refill = t.ocm_refill()};
  return o;
}

}  // namespace mpsim::rosa
