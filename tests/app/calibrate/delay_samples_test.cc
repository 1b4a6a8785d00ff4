#include "app/calibrate/delay_samples.h"

#include <gtest/gtest.h>

#include "app/calibrate/provider_id.h"

namespace mpsim::calibrate {
namespace {

constexpr int64_t kCalS = 1000000;

TEST(CalibrateProviderID, JoinKeysMatchEachProvidersForms) {
  // An AWS Node's providerID and the listing's agree on the instance id alone.
  EXPECT_EQ(JoinKey("aws:///us-east-1a/i-0abc"), JoinKey("aws:///us-east-1b/i-0abc"));
  EXPECT_EQ(JoinKey("aws:///us-east-1a/i-0abc"), JoinKey("aws:////i-0abc"));
  // ARM ids are case-insensitive; CAPZ lower-cases the resource group.
  EXPECT_EQ(JoinKey("azure:///subscriptions/s/resourceGroups/MY-RG/providers/x/1"),
            JoinKey("azure:///subscriptions/s/resourceGroups/my-rg/providers/x/1"));
  EXPECT_NE(JoinKey("gce://p/z/a"), JoinKey("gce://p/z/b"));
}

TEST(CalibrateProviderID, ZonesWhereTheFormHasThem) {
  EXPECT_EQ(ZoneOf("aws:///us-east-1a/i-0abc"), "us-east-1a");
  EXPECT_EQ(ZoneOf("gce://proj/europe-west1-b/vm-1"), "europe-west1-b");
  EXPECT_EQ(ZoneOf("scaleway://instance/fr-par-2/1111"), "fr-par-2");
  EXPECT_EQ(ZoneOf("azure:///subscriptions/s/resourceGroups/rg/providers/x/1"), "");
  EXPECT_EQ(ZoneOf("oci://ocid1.instance.oc1.phx.a"), "");
}

NodeRow CalNodeRow(const std::string& name, int64_t created_s, const std::string& pid) {
  NodeRow n;
  n.name = name;
  n.created = created_s * kCalS;
  n.provider_id = pid;
  return n;
}

InstanceRow CalInstance(const std::string& pid, int64_t launched_s) {
  return {.file = "i.json", .name = pid, .provider_id = pid, .launched = launched_s * kCalS};
}

int CalUnused(const DelaySamples& d, const std::string& why) {
  for (const UnusedRows& u : d.unused) {
    if (u.why == why) return u.count;
  }
  return 0;
}

TEST(CalibrateDelaySamples, JoinsAndCountsWhatItCannotUse) {
  Dumps d;
  d.instances = {CalInstance("aws:///a/i-1", 100), CalInstance("aws:///a/i-2", 100),
                 CalInstance("aws:///a/i-3", 100), CalInstance("aws:///a/i-4", 100)};
  d.nodes = {CalNodeRow("ok", 130, "aws:///a/i-1"), CalNodeRow("skewed", 95, "aws:///a/i-2"),
             CalNodeRow("same-second", 100, "aws:///a/i-3"),
             CalNodeRow("stray", 10, "aws:///a/i-9"), CalNodeRow("no-id", 10, "")};
  d.nodes[0].ready = 145 * kCalS;
  d.nodes[0].provider_id_manager = "cloud-controller-manager";
  d.nodes[0].provider_id_time = 132 * kCalS;
  d.nodes[1].provider_id_manager = "kubelet";
  const MeasuredDelays m = MeasureDelays(d);
  // ok: 30 s; same-second: 0 s counted as half a second; skewed left out.
  EXPECT_EQ(m.registration.seconds, (std::vector<double>{30, 0.5}));
  EXPECT_EQ(m.registration.under_resolution, 1);
  EXPECT_EQ(CalUnused(m.registration, "clock skew: Node created before its instance launched"), 1);
  EXPECT_EQ(CalUnused(m.registration, "instance without a Node"), 1);  // i-4
  EXPECT_EQ(CalUnused(m.registration, "Node without an instance in the listings"), 1);
  EXPECT_EQ(CalUnused(m.registration, "Node without a providerID"), 1);
  EXPECT_EQ(m.ready.seconds, std::vector<double>{15});
  EXPECT_EQ(CalUnused(m.ready, "Node never Ready"), 4);
  EXPECT_EQ(m.ccm.seconds, std::vector<double>{2});
  EXPECT_EQ(m.provider_id_by_kubelet, 1);
}

TEST(CalibrateDelaySamples, NoListingNoRegistrationDelay) {
  Dumps d;
  d.nodes = {CalNodeRow("n", 10, "aws:///a/i-1")};
  const MeasuredDelays m = MeasureDelays(d);
  EXPECT_TRUE(m.registration.seconds.empty());
  EXPECT_TRUE(m.registration.unused.empty());
}

}  // namespace
}  // namespace mpsim::calibrate
