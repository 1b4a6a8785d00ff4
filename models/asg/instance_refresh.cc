#include "models/asg/instance_refresh.h"

#include <algorithm>

namespace mpsim::asg {

int32_t RefreshBatchSize(int32_t desired, int32_t min_healthy_percentage) {
  // The healthy floor is "rounded up to the nearest integer"
  // (asg-instance-refresh.md); a floor of everything still replaces one.
  const int64_t floor = (static_cast<int64_t>(desired) * min_healthy_percentage + 99) / 100;
  return std::max<int32_t>(1, desired - static_cast<int32_t>(floor));
}

}  // namespace mpsim::asg
