// deleteRetiredNodes (machinepool_controller_noderef.go): a Node named in
// status.nodeRefs whose providerID left spec.providerIDList is deleted, and
// no other, whatever the order of the list and of the nodeRefs.
#include <gtest/gtest.h>

#include "controller/machinepool_internal.h"
#include "tests/testing/machinepool_fixtures.h"

namespace mpsim {
namespace {

using fake::MakeNode;
using fake::NodeRef;

class DeleteRetiredNodesTest : public ::testing::Test {
 protected:
  DeleteRetiredNodesTest() : client_(&clock_) {
    for (int i = 0; i < 4; ++i) {
      const std::string n = std::to_string(i);
      client_.nodes().Add(MakeNode("node-" + n, "test:///vm-" + n, "True", "uid-" + n));
    }
  }
  Status Delete(const std::vector<std::string>& refs, std::optional<ProviderIDList> ids) {
    std::vector<NodeReference> node_refs;
    for (const std::string& r : refs) node_refs.push_back(NodeRef(r));
    return DeleteRetiredNodes(&client_.nodes(), node_refs, ids, ProviderIDMatch::kExact);
  }
  bool Has(const std::string& name) { return client_.nodes().Has({"", name}); }

  fake::FakeClock clock_;
  fake::FakeClient client_;
};

TEST_F(DeleteRetiredNodesTest, ListedInOrderWithNewIdsBetweenDeletesNothing) {
  ASSERT_TRUE(Delete({"node-0", "node-2"},
                     std::vector<std::string>{"test:///vm-0", "test:///vm-1", "test:///vm-2"})
                  .ok());
  EXPECT_TRUE(Has("node-0") && Has("node-1") && Has("node-2") && Has("node-3"));
}

TEST_F(DeleteRetiredNodesTest, ListedOutOfOrderDeletesNothing) {
  ASSERT_TRUE(
      Delete({"node-2", "node-0"}, std::vector<std::string>{"test:///vm-0", "test:///vm-2"}).ok());
  EXPECT_TRUE(Has("node-0") && Has("node-2"));
}

// The simulated clouds list the very buffer the Node's providerID holds.
TEST_F(DeleteRetiredNodesTest, ListEntriesSharingTheNodesBuffersAreMatchedByAddress) {
  auto id_of = [&](const std::string& name) {
    return client_.nodes().GetShared({"", name})->spec.provider_id;
  };
  const SharedString id0 = id_of("node-0"), id2 = id_of("node-2"), id3 = id_of("node-3");
  ASSERT_TRUE(Delete({"node-0", "node-2"}, std::vector<SharedString>{id0, id2, id3}).ok());
  EXPECT_TRUE(Has("node-0") && Has("node-1") && Has("node-2") && Has("node-3"));
  ASSERT_TRUE(Delete({"node-0", "node-2", "node-3"}, std::vector<SharedString>{id0, id3}).ok());
  EXPECT_TRUE(Has("node-0"));
  EXPECT_FALSE(Has("node-2"));
  EXPECT_TRUE(Has("node-3"));
}

// Entries of instances without a Node yet lie between those of the nodeRefs.
TEST_F(DeleteRetiredNodesTest, NodeRefsFarApartInTheListAreKeptAndTheRetiredStillGo) {
  auto id_of = [&](const std::string& name) {
    return client_.nodes().GetShared({"", name})->spec.provider_id;
  };
  std::vector<SharedString> ids = {id_of("node-0")};
  for (int i = 0; i < 200; ++i) ids.push_back("test:///no-node-yet-" + std::to_string(i));
  std::vector<SharedString> with_2 = ids;
  with_2.push_back(id_of("node-2"));
  ASSERT_TRUE(Delete({"node-0", "node-2"}, with_2).ok());
  EXPECT_TRUE(Has("node-0") && Has("node-2"));
  ASSERT_TRUE(Delete({"node-0", "node-2"}, ids).ok());
  EXPECT_TRUE(Has("node-0"));
  EXPECT_FALSE(Has("node-2"));
}

// A Node without a providerID has no key: it is never retired, and the
// Nodes after it still are.
TEST_F(DeleteRetiredNodesTest, ANodeWithoutAProviderIDIsNeverRetired) {
  client_.nodes().Add(MakeNode("node-e", "", "True", "uid-e"));
  ASSERT_TRUE(Delete({"node-e", "node-0", "node-1"},
                     std::vector<std::string>{"test:///vm-0", "test:///vm-1"})
                  .ok());
  EXPECT_TRUE(Has("node-e") && Has("node-0") && Has("node-1"));
  ASSERT_TRUE(
      Delete({"node-0", "node-e", "node-1"}, std::vector<std::string>{"test:///vm-0"}).ok());
  EXPECT_TRUE(Has("node-e") && Has("node-0"));
  EXPECT_FALSE(Has("node-1"));
}

TEST_F(DeleteRetiredNodesTest, AReferencedNodeWhoseIdLeftTheListIsDeleted) {
  ASSERT_TRUE(Delete({"node-0", "node-1", "node-2"},
                     std::vector<std::string>{"test:///vm-0", "test:///vm-2"})
                  .ok());
  EXPECT_TRUE(Has("node-0"));
  EXPECT_FALSE(Has("node-1"));
  EXPECT_TRUE(Has("node-2"));
  EXPECT_TRUE(Has("node-3"));  // never referenced: not ours to delete
}

TEST_F(DeleteRetiredNodesTest, NoListRetiresEveryReferencedNode) {
  ASSERT_TRUE(Delete({"node-0", "node-3"}, std::nullopt).ok());
  EXPECT_FALSE(Has("node-0"));
  EXPECT_FALSE(Has("node-3"));
  EXPECT_TRUE(Has("node-1"));
}

TEST_F(DeleteRetiredNodesTest, AReferenceToAMissingNodeIsSkipped) {
  ASSERT_TRUE(Delete({"node-0", "gone", "node-1"}, std::vector<std::string>{"test:///vm-1"}).ok());
  EXPECT_FALSE(Has("node-0"));
  EXPECT_TRUE(Has("node-1"));
}

}  // namespace
}  // namespace mpsim
