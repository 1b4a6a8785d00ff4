#include "models/kapsule/kapsule_options.h"

#include "sim/distribution_proto.h"

namespace mpsim::kapsule {

KapsuleOptions ToKapsuleOptions(const proto::KapsuleProvider& p) {
  KapsuleOptions o;
  if (p.zones_size() > 0) o.zone = p.zones(0);
  if (auto it = p.capacity().find(o.zone); it != p.capacity().end()) o.capacity = it->second;
  o.launch_delay = ToDistSpec(p.launch_delay());
  o.delete_delay = ToDistSpec(p.delete_delay());
  o.creation_retry = ToDistSpec(p.creation_retry());
  o.upgrade_policy.max_surge = p.upgrade_policy().max_surge();
  o.upgrade_policy.max_unavailable = p.upgrade_policy().max_unavailable();
  return o;
}

}  // namespace mpsim::kapsule
