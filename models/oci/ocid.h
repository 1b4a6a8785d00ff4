// Oracle Cloud IDs (docs/reference/oci-scaleway.md §6.1): every resource the
// model makes is named ocid1.<type>.oc1.<region>.<unique>, the unique part
// drawn from the pool's own stream so that a run replays.
#pragma once

#include <string>

#include "sim/random.h"

namespace mpsim::oci {

// A new OCID of resource `type` (e.g. "instance", "instancepool") in `region`.
std::string NewOcid(const std::string& type, const std::string& region, Rng* rng);

// `n` random lowercase letters and digits.
std::string RandomAlnum(int n, Rng* rng);

}  // namespace mpsim::oci
