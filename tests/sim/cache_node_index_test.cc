// The workload Node cache's providerID index (Cluster API's ClusterCache
// NodeProviderIDIndex) as the MachinePool controller's getNodeRefMap reads
// it: each key names the later Node in key order, follows providerID changes
// and deletions, and a cache without the index answers the same by scanning.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

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
  Node n = *client_.GetShared({"", "node-1"});
  n.spec.provider_id = "aws:///z/i-1";
  ASSERT_TRUE(client_.Update(&n).ok());
  EXPECT_EQ(NameOf("aws:///z/i-1"), "node-1");
}

INSTANTIATE_TEST_SUITE_P(IndexedOrScanned, CacheNodeIndex, ::testing::Bool());

// The map the informer keeps for getNodeRefMap equals what a loop over the
// cache in key order builds, through adds, a shared providerID, a deletion
// and a providerID that changes; a reader's copy stays as it was read.
class CacheNodeUniqueIndex : public ::testing::Test {
 protected:
  CacheNodeUniqueIndex()
      : server_(&loop_),
        inf_(&loop_, &server_.Store<Node>(), DistSpec::Constant(0), StreamFor(1, "t")),
        client_(&inf_, &server_.Store<Node>(), &writes_) {
    inf_.AddUniqueIndex(kNodeProviderIDField);
  }
  void Put(const std::string& name, const std::string& id) {
    if (std::shared_ptr<const Node> cached = client_.GetShared({"", name})) {
      Node n = *cached;
      n.spec.provider_id = id;
      ASSERT_TRUE(client_.Update(&n).ok());
    } else {
      Node n;
      n.meta.name = name;
      n.spec.provider_id = id;
      ASSERT_TRUE(client_.Create(&n).ok());
    }
    loop_.Run(loop_.Now() + kSecond, 1000);
  }
  // id -> name, as the kept map says, and as a loop over List builds it.
  std::map<std::string, std::string> Kept() {
    std::map<std::string, std::string> out;
    for (const auto& [id, node] : client_.UniqueIndexMap(kNodeProviderIDField)->by_value) {
      out[std::string(id)] = node->meta.name;
    }
    return out;
  }
  // name -> id, as the kept name map says, and as a loop over the kept
  // providerID map's Nodes builds it.
  std::map<std::string, std::string> KeptNames() {
    std::map<std::string, std::string> out;
    for (const auto& [name, node] : client_.UniqueIndexMap(kNodeProviderIDField)->by_name) {
      out[std::string(name)] = node->spec.provider_id.str();
    }
    return out;
  }
  std::map<std::string, std::string> LoopedNames() {
    std::map<std::string, std::string> out;
    for (const auto& [id, name] : Looped()) out[name] = id;
    return out;
  }
  std::map<std::string, std::string> Looped() {
    std::map<std::string, std::string> out;
    for (const auto& node : client_.List({})) {
      if (!node->spec.provider_id.empty()) out[node->spec.provider_id.str()] = node->meta.name;
    }
    return out;
  }

  EventLoop loop_;
  ApiServer server_;
  Informer<Node> inf_;
  uint64_t writes_ = 0;
  CacheClient<Node> client_;
};

TEST_F(CacheNodeUniqueIndex, EqualsTheLoopThroughEveryKindOfChange) {
  Put("node-b", "id-1");
  Put("node-c", "id-2");
  EXPECT_EQ(Kept(), Looped());
  Put("node-a", "id-1");  // shares id-1 with node-b, which is later in key order
  EXPECT_EQ(Kept(), (std::map<std::string, std::string>{{"id-1", "node-b"}, {"id-2", "node-c"}}));
  EXPECT_EQ(Kept(), Looped());
  ASSERT_TRUE(client_.Delete({"", "node-b"}).ok());
  loop_.Run(loop_.Now() + kSecond, 1000);
  EXPECT_EQ(Kept(), (std::map<std::string, std::string>{{"id-1", "node-a"}, {"id-2", "node-c"}}));
  EXPECT_EQ(Kept(), Looped());
  Put("node-c", "id-3");  // a providerID that changes
  EXPECT_EQ(Kept(), (std::map<std::string, std::string>{{"id-1", "node-a"}, {"id-3", "node-c"}}));
  EXPECT_EQ(Kept(), Looped());
}

// The name map holds exactly the Nodes the providerID map holds: a Node that
// loses its providerID to a later one leaves it.
TEST_F(CacheNodeUniqueIndex, NamesFollowTheNodesTheMapKeeps) {
  Put("node-b", "id-1");
  Put("node-c", "id-2");
  EXPECT_EQ(KeptNames(),
            (std::map<std::string, std::string>{{"node-b", "id-1"}, {"node-c", "id-2"}}));
  Put("node-d", "id-1");  // later in key order than node-b: takes id-1
  EXPECT_EQ(KeptNames(),
            (std::map<std::string, std::string>{{"node-c", "id-2"}, {"node-d", "id-1"}}));
  EXPECT_EQ(KeptNames(), LoopedNames());
  Put("node-c", "id-3");
  EXPECT_EQ(KeptNames(),
            (std::map<std::string, std::string>{{"node-c", "id-3"}, {"node-d", "id-1"}}));
}

// controller.reconcileCost counts what a reconcile lists: a List's objects,
// and for a kept map every cached Node, as the List it stands for returns.
TEST_F(CacheNodeUniqueIndex, CountsTheObjectsListed) {
  Put("node-a", "id-1");
  Put("node-b", "id-2");
  Put("node-c", "");
  uint64_t listed = 0;
  CacheClient<Node> counted(&inf_, &server_.Store<Node>(), &writes_, &listed);
  counted.List({});
  EXPECT_EQ(listed, 3u);
  counted.UniqueIndexMap(kNodeProviderIDField);
  EXPECT_EQ(listed, 6u);
  counted.GetShared({"", "node-a"});  // a Get lists nothing
  EXPECT_EQ(listed, 6u);
}

TEST_F(CacheNodeUniqueIndex, AReaderKeepsTheMapItRead) {
  Put("node-a", "id-1");
  std::shared_ptr<const UniqueIndexMaps<Node>> held = client_.UniqueIndexMap(kNodeProviderIDField);
  Put("node-b", "id-2");
  EXPECT_EQ(held->by_value.size(), 1u);
  EXPECT_EQ(held->by_name.size(), 1u);
  EXPECT_EQ(Kept().size(), 2u);
}

}  // namespace
}  // namespace mpsim
