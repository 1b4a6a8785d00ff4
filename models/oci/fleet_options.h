// The keys every OCI block (`oci`, `oke`) shares, read into FleetOptions.
#pragma once

#include <string>
#include <utility>

#include "models/oci/fleet.h"
#include "sim/distribution_proto.h"

namespace mpsim::oci {

template <class Block>
FleetOptions ToFleetOptions(const Block& b, std::string provider_id_prefix) {
  FleetOptions o;
  o.zones.assign(b.zones().begin(), b.zones().end());
  o.capacity.insert(b.capacity().begin(), b.capacity().end());
  o.launch_delay = ToDistSpec(b.launch_delay());
  o.delete_delay = ToDistSpec(b.delete_delay());
  o.region = b.region();
  o.provider_id_prefix = std::move(provider_id_prefix);
  return o;
}

}  // namespace mpsim::oci
