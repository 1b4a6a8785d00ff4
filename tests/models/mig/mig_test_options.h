// The MIG options the MIG tests start from: one zone and constant delays, so
// that each test can read its timeline off exactly.
#pragma once

#include "models/mig/mig_options.h"

namespace mpsim::mig {

inline MigOptions ConstantDelayMigOptions() {
  MigOptions o;
  o.zones = {"z"};
  o.launch_delay = DistSpec::Constant(20 * kSecond);
  o.delete_delay = DistSpec::Constant(30 * kSecond);
  o.reaction_delay = DistSpec::Constant(kSecond);
  o.stockout_retry = DistSpec::Constant(60 * kSecond);
  return o;
}

}  // namespace mpsim::mig
