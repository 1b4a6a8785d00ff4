#include "controller/node_ref_map.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace mpsim {
namespace {

std::shared_ptr<const Node> SharedNode(const std::string& name, const std::string& id) {
  auto n = std::make_shared<Node>();
  n->meta.name = name;
  n->spec.provider_id = id;
  return n;
}

TEST(NodesByName, FindsEachNodeByName) {
  NodeRefMap nodes;
  for (int i = 0; i < 40; ++i) {
    auto n = SharedNode("node-" + std::to_string(i), "test://" + std::to_string(i));
    nodes.InsertOrAssign(n->spec.provider_id, n);
  }
  const FlatViewMap<const Node*> by_name = NodesByName(nodes);
  EXPECT_EQ(by_name.size(), 40u);
  EXPECT_EQ(by_name.find("node-45"), by_name.end());
  for (int i = 0; i < 40; ++i) {
    const std::string name = "node-" + std::to_string(i);
    auto it = by_name.find(name);
    ASSERT_NE(it, by_name.end()) << name;
    EXPECT_EQ(it->second->meta.name, name);
  }
}

// Two providerIDs on Nodes of one name: the later entry wins, as when the Go
// code fills a map by name.
TEST(NodesByName, OfTwoNodesWithOneNameTheLaterWins) {
  auto a = SharedNode("node-1", "test://a");
  auto b = SharedNode("node-1", "test://b");
  const NodeRefMap nodes = {{"test://a", a}, {"test://b", b}};
  const FlatViewMap<const Node*> by_name = NodesByName(nodes);
  ASSERT_EQ(by_name.size(), 1u);
  EXPECT_EQ(by_name.at("node-1"), b.get());
}

}  // namespace
}  // namespace mpsim
