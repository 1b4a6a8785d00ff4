#include "controller/node_ref_map.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace mpsim {
namespace {

std::shared_ptr<const Node> SharedNode(const std::string& name, const std::string& id) {
  auto n = std::make_shared<Node>();
  n->meta.name = name;
  n->spec.provider_id = id;
  return n;
}

std::vector<NodeReference> Refs(const std::vector<std::string>& names) {
  std::vector<NodeReference> out;
  for (const std::string& n : names) out.push_back({.name = n});
  return out;
}

// More refs than the look-ahead distance, in another order than the map's,
// with names the map lacks.
TEST(NodesOfRefs, FindsEachRefsNodeByNameInRefOrder) {
  NodeRefMap nodes;
  for (int i = 0; i < 40; ++i) {
    auto n = SharedNode("node-" + std::to_string(i), "test://" + std::to_string(i));
    nodes.InsertOrAssign(n->spec.provider_id, n);
  }
  std::vector<std::string> names;
  for (int i = 45; i >= 0; i -= 3) names.push_back("node-" + std::to_string(i));
  const std::vector<const Node*> found = NodesOfRefs(nodes, Refs(names));
  ASSERT_EQ(found.size(), names.size());
  EXPECT_EQ(found[0], nullptr);  // node-45
  EXPECT_EQ(found[1], nullptr);  // node-42
  for (size_t i = 2; i < names.size(); ++i) {
    ASSERT_NE(found[i], nullptr) << names[i];
    EXPECT_EQ(found[i]->meta.name, names[i]);
  }
}

// Two providerIDs on Nodes of one name: the later entry wins, as when the Go
// code fills a map by name.
TEST(NodesOfRefs, OfTwoNodesWithOneNameTheLaterWins) {
  auto a = SharedNode("node-1", "test://a");
  auto b = SharedNode("node-1", "test://b");
  const NodeRefMap nodes = {{"test://a", a}, {"test://b", b}};
  const std::vector<const Node*> found = NodesOfRefs(nodes, Refs({"node-1"}));
  EXPECT_EQ(found, (std::vector<const Node*>{b.get()}));
}

}  // namespace
}  // namespace mpsim
