// The workload Node cache's providerID index (Cluster API's ClusterCache
// NodeProviderIDIndex) as the MachinePool controller's getNodeRefMap reads
// it: each key names the later Node in key order, follows providerID changes
// and deletions, and a cache without the index answers the same by scanning.
#include <gtest/gtest.h>

#include "api/indexes.h"
#include "sim/api_server.h"
#include "sim/cache_client.h"
#include "sim/event_loop.h"
#include "sim/informer.h"

namespace mpsim {
namespace {

class CacheNodeIndex : public ::testing::TestWithParam<bool> {
 protected:
  CacheNodeIndex()
      : server_(&loop_),
        inf_(&loop_, &server_.Store<Node>(), DistSpec::Constant(0), StreamFor(1, "t")),
        client_(&inf_, &server_.Store<Node>(), &writes_) {
    if (GetParam()) inf_.AddIndex(kNodeProviderIDField);
  }

  void Put(const std::string& name, const std::string& id) {
    Node n;
    n.meta.name = name;
    n.spec.provider_id = id;
    ASSERT_TRUE(client_.Create(&n).ok());
  }
  std::string NameOf(const std::string& id) {
    loop_.Run(loop_.Now() + kSecond, 1000);
    std::shared_ptr<const Node> n = client_.GetSharedByIndex(kNodeProviderIDField, id);
    return n == nullptr ? "<none>" : n->meta.name;
  }

  EventLoop loop_;
  ApiServer server_;
  Informer<Node> inf_;
  uint64_t writes_ = 0;
  CacheClient<Node> client_;
};

TEST_P(CacheNodeIndex, FindsTheNodeOfAProviderID) {
  Put("node-1", "aws:///z/i-1");
  Put("node-2", "aws:///z/i-2");
  EXPECT_EQ(NameOf("aws:///z/i-2"), "node-2");
  EXPECT_EQ(NameOf("aws:///z/i-1"), "node-1");
  EXPECT_EQ(NameOf("aws:///z/i-3"), "<none>");
}

TEST_P(CacheNodeIndex, OfNodesSharingAProviderIDTheLaterInKeyOrderWins) {
  Put("node-b", "aws:///z/i-1");
  Put("node-a", "aws:///z/i-1");
  EXPECT_EQ(NameOf("aws:///z/i-1"), "node-b");
  ASSERT_TRUE(client_.Delete({"", "node-b"}).ok());
  EXPECT_EQ(NameOf("aws:///z/i-1"), "node-a");
}

TEST_P(CacheNodeIndex, FollowsAProviderIDSetLater) {
  Put("node-1", "");
  EXPECT_EQ(NameOf(""), "<none>");
  EXPECT_FALSE(client_.IndexHasValues(kNodeProviderIDField));
  Node n = *client_.GetShared({"", "node-1"});
  n.spec.provider_id = "aws:///z/i-1";
  ASSERT_TRUE(client_.Update(&n).ok());
  EXPECT_EQ(NameOf("aws:///z/i-1"), "node-1");
  EXPECT_TRUE(client_.IndexHasValues(kNodeProviderIDField));
}

INSTANTIATE_TEST_SUITE_P(IndexedOrScanned, CacheNodeIndex, ::testing::Bool());

}  // namespace
}  // namespace mpsim
