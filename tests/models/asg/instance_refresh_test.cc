// Instance refresh batch sizes with MinHealthyPercentage 90 and MaxHealthy
// 100 (docs/reference/providers.md §1.2): desired - ceil(90% x desired), at least one.
#include "models/asg/instance_refresh.h"

#include <gtest/gtest.h>

namespace mpsim::asg {
namespace {

TEST(InstanceRefresh, BatchSizesForOneThreeTenAndHundredInstances) {
  EXPECT_EQ(RefreshBatchSize(1, 90), 1);
  EXPECT_EQ(RefreshBatchSize(3, 90), 1);
  EXPECT_EQ(RefreshBatchSize(10, 90), 1);
  EXPECT_EQ(RefreshBatchSize(100, 90), 10);
}

TEST(InstanceRefresh, HundredPercentIsOneAtATimeAndZeroIsAllAtOnce) {
  EXPECT_EQ(RefreshBatchSize(50, 100), 1);
  EXPECT_EQ(RefreshBatchSize(50, 0), 50);
  EXPECT_EQ(RefreshBatchSize(101, 90), 10);  // floor ceil(90.9) = 91
}

}  // namespace
}  // namespace mpsim::asg
