#include "models/eks/eks_options.h"

#include "sim/distribution_proto.h"

namespace mpsim::eks {

EksOptions ToEksOptions(const proto::EksProvider& p) {
  EksOptions o;
  o.zones.assign(p.zones().begin(), p.zones().end());
  o.capacity.insert(p.capacity().begin(), p.capacity().end());
  o.launch_delay = ToDistSpec(p.launch_delay());
  o.delete_delay = ToDistSpec(p.delete_delay());
  o.create_delay = ToDistSpec(p.create_delay());
  o.settle_delay = ToDistSpec(p.settle_delay());
  o.update_setup_delay = ToDistSpec(p.update_setup_delay());
  o.reaction_delay = ToDistSpec(p.reaction_delay());
  o.launch_retry = ToDistSpec(p.launch_retry());
  o.delete_group_delay = ToDistSpec(p.delete_group_delay());
  // CAPA's webhook defaults a nil updateConfig to maxUnavailable 1
  // (docs/reference/aws-managed.md §1.8, whk:309-313).
  o.max_unavailable_percentage = p.max_unavailable_percentage();
  o.max_unavailable =
      p.has_max_unavailable() ? p.max_unavailable() : (p.has_max_unavailable_percentage() ? 0 : 1);
  if (p.has_max_size()) o.max_size = p.max_size();
  if (p.has_min_size()) o.min_size = p.min_size();
  o.quota = p.nodes_per_nodegroup_quota();
  o.upgraded_nodes_join = p.upgraded_nodes_join();
  o.max_wait = p.max_wait_managed_resources();
  o.ice_probability = p.ice_probability();
  const proto::EksApiThrottling& t = p.api_throttling();
  o.api_throttling = {.enabled = t.enabled(),
                      .describe_burst = t.describe_burst(),
                      .describe_refill = t.describe_refill(),
                      .mutating_burst = t.mutating_burst(),
                      .mutating_refill = t.mutating_refill()};
  return o;
}

}  // namespace mpsim::eks
