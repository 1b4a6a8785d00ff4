// Issue 53's done-when on tests/data/calibrate (gen.py there draws every
// delay from lognormals of known median and p99, and plants each cluster's
// defects): the fits recover the truth, and the rows left out are the ones planted.
#include <gtest/gtest.h>

#include "app/calibrate/calibration.h"
#include "app/calibrate/read_dumps.h"

namespace mpsim::calibrate {
namespace {

Calibration CalFixture(const std::string& cluster) {
  const std::string dir = std::string(MPSIM_SOURCE_DIR) + "/tests/data/calibrate/" + cluster + "/";
  Dumps dumps;
  std::string error;
  EXPECT_TRUE(ReadDumps({dir + "nodes.json", dir + "instances.json", dir + "machinepools.json"},
                        &dumps, &error))
      << error;
  return Calibrate(dumps);
}

int CalUnusedOf(const Calibration& c, const std::string& key, const std::string& why) {
  for (const UnusedRows& u : c.Find(key)->samples.unused) {
    if (u.why == why) return u.count;
  }
  return 0;
}

TEST(CalibrateFixtures, LognormalClusterGivesBackItsTruth) {
  const Calibration c = CalFixture("lognormal");
  EXPECT_EQ(c.nodes, 1000u);
  // gen.py TRUTH: registration median 40 s (p99 120 s), Ready median 15 s (p99 40 s).
  const DelayCalibration* reg = c.Find("nodeRegistration");
  ASSERT_TRUE(reg->fitted) << reg->not_fitted;
  EXPECT_EQ(reg->fit.n, 1000u);
  EXPECT_EQ(reg->fit.families[reg->fit.chosen].params.family, Family::kLognormal);
  EXPECT_NEAR(reg->fit.Find(Family::kLognormal)->median, 40.0, 4.0);
  EXPECT_NEAR(reg->fit.Find(Family::kLognormal)->p99, 120.0, 12.0);
  const DelayCalibration* ready = c.Find("nodeReady");
  ASSERT_TRUE(ready->fitted) << ready->not_fitted;
  EXPECT_NEAR(ready->fit.Find(Family::kLognormal)->median, 15.0, 1.5);
  // ccmDelay's truth (median 5 s) is a few seconds of whole-second timestamps: present only.
  EXPECT_TRUE(c.Find("ccmDelay")->fitted);
}

TEST(CalibrateFixtures, AwsClusterCountsItsPlantedDefects) {
  // gen.py: instances 4 and 9 without a Node, Nodes 12, 17, 21 never Ready,
  // Node 25 created 5 s before its instance; the managed pool's kubelet sets
  // providerIDs (every second machine of the 30, less the two without a Node).
  const Calibration c = CalFixture("aws");
  EXPECT_EQ(CalUnusedOf(c, "nodeRegistration", "instance without a Node"), 2);
  EXPECT_EQ(
      CalUnusedOf(c, "nodeRegistration", "clock skew: Node created before its instance launched"),
      1);
  EXPECT_EQ(CalUnusedOf(c, "nodeReady", "Node never Ready"), 3);
  EXPECT_EQ(c.Find("nodeRegistration")->samples.seconds.size(), 27u);
  EXPECT_EQ(c.provider_id_by_kubelet, 14);
}

TEST(CalibrateFixtures, AzureClusterJoinsAcrossResourceGroupCase) {
  // gen.py: VM 3 without a Node, Node 7 never Ready, Node 11 skewed, of 24.
  const Calibration c = CalFixture("azure");
  EXPECT_EQ(c.Find("nodeRegistration")->samples.seconds.size(), 22u);
  EXPECT_EQ(CalUnusedOf(c, "nodeRegistration", "instance without a Node"), 1);
  EXPECT_EQ(CalUnusedOf(c, "nodeRegistration", "Node without an instance in the listings"), 0);
  EXPECT_EQ(CalUnusedOf(c, "nodeReady", "Node never Ready"), 1);
}

TEST(CalibrateFixtures, GcpClusterReadsPacificTimes) {
  // gen.py: instance 2 without a Node, Nodes 5 and 8 never Ready, Node 13 skewed, of 20.
  const Calibration c = CalFixture("gcp");
  EXPECT_EQ(c.Find("nodeRegistration")->samples.seconds.size(), 18u);
  EXPECT_EQ(
      CalUnusedOf(c, "nodeRegistration", "clock skew: Node created before its instance launched"),
      1);
  EXPECT_EQ(CalUnusedOf(c, "nodeReady", "Node never Ready"), 2);
  // The -08:00 offsets are read: no delay is off by eight hours.
  for (double s : c.Find("nodeRegistration")->samples.seconds) EXPECT_LT(s, 3600);
}

}  // namespace
}  // namespace mpsim::calibrate
