// The size of a MachinePool write as etcd receives it, and the API server
// refusing one over etcd's --max-request-bytes with etcd's own error
// (docs/reference/capi-core.md §1.15).
#include "sim/request_size.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/api_server.h"
#include "sim/event_loop.h"

namespace mpsim {
namespace {

// etcd's default --max-request-bytes: 1.5 MiB (server/embed/config.go:67).
constexpr uint64_t kEtcdDefault = 1572864;

// An AWS-looking replica: a 37-character providerID, a 26-character Node name.
std::string AwsId(int i) {
  std::string n = std::to_string(i);
  return "aws:///us-east-1a/i-" + std::string(17 - n.size(), '0') + n;
}
std::string AwsNode(int i) {
  return "ip-10-0-" + std::to_string(10 + i % 90) + "-" + std::to_string(10 + i / 90 % 90) +
         ".ec2.internal";
}

MachinePool Pool(int replicas) {
  MachinePool mp;
  mp.meta = {.name = "mp-0", .ns = "default"};
  std::vector<SharedString> ids;
  std::vector<NodeReference> refs;
  for (int i = 0; i < replicas; ++i) {
    ids.emplace_back(AwsId(i));
    refs.push_back({.name = AwsNode(i), .uid = "node-" + std::to_string(i)});
  }
  mp.spec.provider_id_list = ProviderIDList(ids);
  mp.status.node_refs = refs;
  return mp;
}

// The bytes encoding/json writes for one list entry and the comma after it.
TEST(RequestSize, EntriesCostWhatTheirJsonTakes) {
  const std::string id = AwsId(42);
  ASSERT_EQ(id.size(), 37u);
  EXPECT_EQ(ProviderIDEntryBytes(SharedString(id)), ("\"" + id + "\",").size());
  const std::string uid = "6f1c2a4e-9b7d-4c3a-8e5f-0a1b2c3d4e5f";  // as Kubernetes writes one
  ASSERT_EQ(uid.size(), kUidBytes);
  const std::string name = AwsNode(42);
  ASSERT_EQ(name.size(), 26u);
  const std::string json =
      R"({"apiVersion":"v1","kind":"Node","name":")" + name + R"(","uid":")" + uid + R"("},)";
  EXPECT_EQ(NodeRefEntryBytes({.name = name, .uid = "node-42"}), json.size());
  EXPECT_EQ(json.size(), 115u);
}

TEST(RequestSize, IsTheFixedPartPlusTheEntries) {
  EXPECT_EQ(RequestBytes(Pool(0), nullptr), kMachinePoolFixedBytes);
  EXPECT_EQ(RequestBytes(Pool(3), nullptr), kMachinePoolFixedBytes + 3 * (40 + 115));
  // Other kinds never grow with a pool.
  EXPECT_EQ(RequestBytes<Node>(Node{}, nullptr), 0u);
}

// 155 bytes a replica: the 10,094th replica fits under 1.5 MiB, the 10,095th
// does not ((1572864 - 8192) / 155 = 10094.7).
TEST(RequestSize, AnAwsPoolCrossesTheDefaultLimitAt10095Replicas) {
  EXPECT_LE(RequestBytes(Pool(10094), nullptr), kEtcdDefault);
  EXPECT_GT(RequestBytes(Pool(10095), nullptr), kEtcdDefault);
}

// Worked out from the stored version, the same answer as from nothing.
TEST(RequestSize, FromTheStoredVersionAgrees) {
  const MachinePool stored = Pool(500);
  EXPECT_EQ(RequestBytes(stored, nullptr), kMachinePoolFixedBytes + 500 * (40 + 115));
  MachinePool next = stored;
  next.spec.provider_id_list->push_back(SharedString(AwsId(900)));
  next.status.node_refs.push_back({.name = AwsNode(900), .uid = "node-900"});
  std::vector<NodeReference>& refs = next.status.node_refs.Mutable();
  refs.erase(refs.begin() + 7);
  MachinePool fresh;  // the same entries in lists that know nothing yet
  fresh.spec.provider_id_list = ProviderIDList(next.spec.provider_id_list->vec());
  fresh.status.node_refs = SharedList<NodeReference>(next.status.node_refs.vec());
  EXPECT_EQ(RequestBytes(next, &stored), kMachinePoolFixedBytes + 501 * 40 + 500 * 115);
  EXPECT_EQ(RequestBytes(next, &stored), RequestBytes(fresh, nullptr));
}

class RequestLimitTest : public ::testing::Test {
 protected:
  RequestLimitTest() {
    pools_.Watch([this](auto, auto, auto) { ++notified_; });
    MachinePool mp = Pool(2);
    EXPECT_TRUE(pools_.Create(&mp).ok());
  }
  EventLoop loop_;
  ApiServer server_{&loop_};
  ObjectStore<MachinePool>& pools_ = server_.Store<MachinePool>();
  int notified_ = 0;
};

// Over the limit: etcd's error, as an internal error, and nothing stored.
TEST_F(RequestLimitTest, AWriteOverTheLimitFailsWithEtcdsErrorAndStoresNothing) {
  server_.SetMaxObjectBytes(kMachinePoolFixedBytes + 3 * 155);
  const MachinePool before = *pools_.Find({"default", "mp-0"});
  MachinePool grown = Pool(4);
  grown.meta = before.meta;
  Status s = pools_.Patch(before, &grown);
  EXPECT_EQ(s.code(), Status::Code::kInternal);
  EXPECT_EQ(s.message(), "etcdserver: request is too large");
  EXPECT_EQ(pools_.Find({"default", "mp-0"})->meta.resource_version, before.meta.resource_version);
  EXPECT_EQ(notified_, 1);  // the create only
  MachinePool update = grown;
  EXPECT_EQ(pools_.UpdateStatus(&update).message(), "etcdserver: request is too large");
  MachinePool big = Pool(4);
  big.meta.name = "mp-1";
  EXPECT_EQ(pools_.Create(&big).message(), "etcdserver: request is too large");
  EXPECT_EQ(pools_.Find({"default", "mp-1"}), nullptr);
  // Up to the limit it is stored.
  MachinePool three = Pool(3);
  three.meta = before.meta;
  EXPECT_TRUE(pools_.Patch(before, &three).ok());
}

TEST_F(RequestLimitTest, ZeroTurnsTheLimitOff) {
  server_.SetMaxObjectBytes(0);
  const MachinePool before = *pools_.Find({"default", "mp-0"});
  MachinePool grown = Pool(20000);
  grown.meta = before.meta;
  EXPECT_TRUE(pools_.Patch(before, &grown).ok());
}

}  // namespace
}  // namespace mpsim
