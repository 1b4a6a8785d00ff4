// The MachinePool field indexes of the manager's cache (Cluster API's
// index.AddDefaultIndexes): a List by providerID or nodeRef name finds the
// pool, follows its changes and forgets it when it is deleted.
#include <gtest/gtest.h>

#include "api/indexes.h"
#include "sim/api_server.h"
#include "sim/cache_client.h"
#include "sim/event_loop.h"
#include "sim/informer.h"

namespace mpsim {
namespace {

class CacheIndex : public ::testing::Test {
 protected:
  CacheIndex()
      : server_(&loop_),
        inf_(&loop_, &server_.Store<MachinePool>(), DistSpec::Constant(0), StreamFor(1, "t")),
        client_(&inf_, &server_.Store<MachinePool>(), &writes_) {
    for (const std::string& f : FieldIndexes<MachinePool>::Fields()) inf_.AddIndex(f);
  }

  std::vector<std::string> ByProviderID(const std::string& id) {
    loop_.Run(loop_.Now() + kSecond, 1000);
    ListOptions<MachinePool> o;
    o.index_field = kMachinePoolProviderIDField;
    o.index_value = id;
    std::vector<std::string> names;
    for (const auto& mp : client_.List(o)) names.push_back(mp->meta.name);
    return names;
  }
  MachinePool Pool(const std::string& name, std::vector<std::string> ids) {
    MachinePool mp;
    mp.meta = {.name = name, .ns = "default"};
    mp.spec.provider_id_list = std::move(ids);
    return mp;
  }

  EventLoop loop_;
  ApiServer server_;
  Informer<MachinePool> inf_;
  uint64_t writes_ = 0;
  CacheClient<MachinePool> client_;
};

TEST_F(CacheIndex, ListByProviderIDFindsOnlyThePoolThatListsIt) {
  MachinePool a = Pool("a", {"aws:///z/i-1", "aws:///z/i-2"});
  MachinePool b = Pool("b", {"aws:///z/i-3"});
  ASSERT_TRUE(client_.Create(&a).ok());
  ASSERT_TRUE(client_.Create(&b).ok());
  EXPECT_EQ(ByProviderID("aws:///z/i-2"), std::vector<std::string>{"a"});
  EXPECT_EQ(ByProviderID("aws:///z/i-3"), std::vector<std::string>{"b"});
  EXPECT_TRUE(ByProviderID("aws:///z/i-9").empty());
}

TEST_F(CacheIndex, IndexFollowsListChangesAndDeletion) {
  MachinePool a = Pool("a", {"id-1", "id-2"});
  ASSERT_TRUE(client_.Create(&a).ok());
  ASSERT_EQ(ByProviderID("id-1"), std::vector<std::string>{"a"});
  a.spec.provider_id_list = std::vector<std::string>{"id-2", "id-3"};
  ASSERT_TRUE(client_.Patch(&a).ok());
  EXPECT_TRUE(ByProviderID("id-1").empty());
  EXPECT_EQ(ByProviderID("id-3"), std::vector<std::string>{"a"});
  ASSERT_TRUE(client_.Delete(a.meta.Key()).ok());
  EXPECT_TRUE(ByProviderID("id-2").empty());
}

TEST_F(CacheIndex, EmptyEntriesAreNotIndexedAndNodeNamesAre) {
  MachinePool a = Pool("a", {"", "id-1"});
  a.status.node_refs = {{.name = "node-1"}};
  ASSERT_TRUE(client_.Create(&a).ok());
  EXPECT_TRUE(ByProviderID("").empty());
  ListOptions<MachinePool> o;
  o.index_field = kMachinePoolNodeNameField;
  o.index_value = "node-1";
  ASSERT_EQ(client_.List(o).size(), 1u);
  o.index_field = "no.such.index";
  EXPECT_TRUE(client_.List(o).empty());
}

// An informer keeps only the indexes its manager registered: the providers'
// managers register none, as only Cluster API's main.go adds them.
// An informer with no index registered, holding pool "a" (providerID id-1,
// nodeRef node-1) in its cache.
class CacheIndexRegistration : public ::testing::Test {
 protected:
  CacheIndexRegistration()
      : server_(&loop_),
        inf_(&loop_, &server_.Store<MachinePool>(), DistSpec::Constant(0), StreamFor(1, "t")) {
    MachinePool mp;
    mp.meta = {.name = "a", .ns = "default"};
    mp.spec.provider_id_list = std::vector<std::string>{"id-1"};
    mp.status.node_refs = {{.name = "node-1"}};
    EXPECT_TRUE(server_.Store<MachinePool>().Create(&mp).ok());
    loop_.Run(kSecond, 100);
  }
  EventLoop loop_;
  ApiServer server_;
  Informer<MachinePool> inf_;
};

TEST_F(CacheIndexRegistration, AnInformerWithoutTheIndexHasNone) {
  EXPECT_EQ(inf_.Lookup(kMachinePoolProviderIDField, "id-1"), nullptr);
}

TEST_F(CacheIndexRegistration, AnIndexAddedLateCoversWhatIsCachedAlready) {
  inf_.AddIndex(kMachinePoolProviderIDField);
  const IndexKeys* keys = inf_.Lookup(kMachinePoolProviderIDField, "id-1");
  ASSERT_NE(keys, nullptr);
  EXPECT_EQ(*keys, (IndexKeys{{"default", "a"}}));
  EXPECT_EQ(inf_.Lookup(kMachinePoolNodeNameField, "node-1"), nullptr);
}

}  // namespace
}  // namespace mpsim
