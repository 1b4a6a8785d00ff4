// Instance refresh arithmetic (docs/reference/providers.md §1.2): with MaxHealthy 100 the
// refresh terminates then launches, at most desired - ceil(min% x desired)
// instances at a time, and at least one. And the statuses of an unfinished
// refresh, as DescribeInstanceRefreshes reports them.
#pragma once

#include <cstdint>

namespace mpsim::asg {

int32_t RefreshBatchSize(int32_t desired, int32_t min_healthy_percentage);

// The unfinished InstanceRefresh.Status values the model reaches: it starts a
// refresh's first batch at once, so never reports Pending; a finished refresh
// (Successful, Cancelled) is gone from the model.
enum class RefreshStatus { kInProgress, kCancelling };

}  // namespace mpsim::asg
