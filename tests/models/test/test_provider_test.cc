// The test cloud's running counters, which its reconciler reads instead of
// scanning every instance: they must follow every lifecycle step.
#include "models/test/test_provider.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "sim/api_server.h"
#include "sim/workload_cluster.h"

namespace mpsim {
namespace {

class TestCloudTest : public ::testing::Test {
 protected:
  TestCloudTest()
      : server_(&loop_),
        workload_(&loop_, &server_, &rec_, WorkloadOptions{}, 1),
        cloud_(&loop_, &workload_, &rec_, "mp-0", Options(), 1) {}
  static TestProviderOptions Options() {
    TestProviderOptions o;
    o.launch_delay = DistSpec::Constant(10 * kSecond);
    o.delete_delay = DistSpec::Constant(5 * kSecond);
    return o;
  }
  void RunFor(Duration d) { loop_.Run(loop_.Now() + d, 1'000'000); }
  std::string FirstName() const { return cloud_.instances().begin()->first; }
  // Launches 100,001 instances (the last one's number has six digits) and
  // kills all but `keep`, leaving them Running.
  void LaunchPastFiveDigitsKeeping(const std::set<std::string>& keep) {
    for (int i = 0; i <= 100000; ++i) cloud_.Launch("v1.30.0");
    std::vector<std::string> names;
    for (const auto& [name, inst] : cloud_.instances()) names.push_back(name);
    for (const std::string& name : names) {
      if (!keep.count(name)) cloud_.Kill(name);
    }
    RunFor(11 * kSecond);
  }
  std::vector<std::string> RunningIds() {
    std::vector<std::string> ids;
    for (const SharedString& id : cloud_.RunningIds().vec()) ids.push_back(id);
    return ids;
  }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
  TestCloud cloud_;
};

TEST_F(TestCloudTest, CountersFollowLaunchBootTerminateAndKill) {
  cloud_.Launch("v1.30.0");
  cloud_.Launch("v1.30.0");
  cloud_.Launch("v1.31.0");
  EXPECT_EQ(cloud_.live(), 3);
  EXPECT_EQ(cloud_.launching(), 3);
  EXPECT_EQ(cloud_.running(), 0);
  EXPECT_EQ(cloud_.LiveWithVersion("v1.30.0"), 2);
  EXPECT_EQ(cloud_.LiveWithVersion("v1.31.0"), 1);
  EXPECT_EQ(cloud_.LiveWithVersion("v1.29.0"), 0);

  RunFor(11 * kSecond);
  EXPECT_EQ(cloud_.launching(), 0);
  EXPECT_EQ(cloud_.running(), 3);
  EXPECT_EQ(cloud_.RunningIds().size(), 3u);

  cloud_.Terminate(FirstName());  // a Deleting instance counts nowhere
  EXPECT_EQ(cloud_.live(), 2);
  EXPECT_EQ(cloud_.running(), 2);
  EXPECT_EQ(cloud_.LiveWithVersion("v1.30.0"), 1);
  EXPECT_EQ(cloud_.instances().size(), 3u);

  cloud_.Kill(FirstName());  // killing the Deleting one changes no count
  EXPECT_EQ(cloud_.live(), 2);
  cloud_.Kill(cloud_.instances().begin()->first);
  EXPECT_EQ(cloud_.live(), 1);
  EXPECT_EQ(cloud_.running(), 1);
  EXPECT_EQ(cloud_.LiveWithVersion("v1.30.0"), 0);
  EXPECT_EQ(cloud_.LiveWithVersion("v1.31.0"), 1);
}

// RunningIds reads the instances in launch order, which is name order while
// launch numbers have five digits; the sixth digit ("mp-0-100000" sorts
// before "mp-0-99999") must not break the sorted list.
TEST_F(TestCloudTest, RunningIdsStaySortedPastFiveDigitNames) {
  LaunchPastFiveDigitsKeeping({"mp-0-00000", "mp-0-00001", "mp-0-99999", "mp-0-100000"});
  EXPECT_EQ(RunningIds(), (std::vector<std::string>{"test://mp-0-00000", "test://mp-0-00001",
                                                    "test://mp-0-100000", "test://mp-0-99999"}));
}

// Past the sixth digit the name order is kept and later launches merged
// into it: "mp-0-100001" lands before "mp-0-10001", not at the end.
TEST_F(TestCloudTest, LaterLaunchesMergeIntoTheNameOrder) {
  LaunchPastFiveDigitsKeeping({"mp-0-00000", "mp-0-10001", "mp-0-99999", "mp-0-100000"});
  ASSERT_EQ(RunningIds().size(), 4u);  // the name order is built here
  for (int i = 0; i < 2; ++i) cloud_.Launch("v1.30.0");
  RunFor(11 * kSecond);
  EXPECT_EQ(RunningIds(), (std::vector<std::string>{"test://mp-0-00000", "test://mp-0-100000",
                                                    "test://mp-0-100001", "test://mp-0-100002",
                                                    "test://mp-0-10001", "test://mp-0-99999"}));
}

// A terminated instance leaves the list once it is gone, and the rest keep
// their order.
TEST_F(TestCloudTest, RunningIdsDropTerminatedInstances) {
  for (int i = 0; i < 4; ++i) cloud_.Launch("v1.30.0");
  RunFor(11 * kSecond);
  cloud_.Terminate("mp-0-00001");
  RunFor(6 * kSecond);
  std::vector<std::string> ids;
  for (const SharedString& id : cloud_.RunningIds().vec()) ids.push_back(id);
  EXPECT_EQ(ids, (std::vector<std::string>{"test://mp-0-00000", "test://mp-0-00002",
                                           "test://mp-0-00003"}));
}

}  // namespace
}  // namespace mpsim
