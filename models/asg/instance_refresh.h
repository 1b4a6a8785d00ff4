// Instance refresh arithmetic (docs/reference/providers.md §1.2): with MaxHealthy 100 the
// refresh terminates then launches, at most desired - ceil(min% x desired)
// instances at a time, and at least one.
#pragma once

#include <cstdint>

namespace mpsim::asg {

int32_t RefreshBatchSize(int32_t desired, int32_t min_healthy_percentage);

}  // namespace mpsim::asg
