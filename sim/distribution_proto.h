// The sampler form of a scenario's distribution mapping.
#pragma once

#include "sim/distribution.h"
#include "sim/proto/distribution.pb.h"

namespace mpsim {

// The sampler form of a distribution that the scenario loader validated.
DistSpec ToDistSpec(const proto::Distribution& d);

}  // namespace mpsim
