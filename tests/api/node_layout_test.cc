// The Node's field order: what each MachinePool reconcile reads of every Node
// sits in the object's first 112 bytes (seventeenth and eighteenth rounds of
// docs/PERFORMANCE.md).
#include <gtest/gtest.h>

#include <cstddef>

#include "api/objects.h"

namespace mpsim {
namespace {

// Bytes from the start of `node` to the end of `field`.
template <class F>
size_t EndOf(const Node& node, const F& field) {
  return static_cast<size_t>(reinterpret_cast<const char*>(&field + 1) -
                             reinterpret_cast<const char*>(&node));
}

// deleteRetiredNodes and getNodeRefMap read the providerID, getNodeReferences
// the uid and the conditions, patchNodes the annotations and the taints, the
// status the kubelet version. With the 16-byte count block in front, 112
// bytes keep all of them within two cache lines when the block starts one;
// in the order of the API (meta first) they were spread over four or five.
TEST(NodeLayoutTest, FieldsEveryReconcileReadsLeadTheObject) {
  const Node node;
  EXPECT_LE(EndOf(node, node.spec.provider_id), 112u);
  EXPECT_LE(EndOf(node, node.spec.taints), 112u);
  EXPECT_LE(EndOf(node, node.status.conditions), 112u);
  EXPECT_LE(EndOf(node, node.status.node_info.kubelet_version), 112u);
  EXPECT_LE(EndOf(node, node.meta.uid), 112u);
  EXPECT_LE(EndOf(node, node.meta.annotations), 112u);
}

// What no reconcile reads per Node comes after them.
TEST(NodeLayoutTest, NamesAndLabelsFollowTheReadFields) {
  const Node node;
  const size_t read_end = EndOf(node, node.meta.annotations);
  EXPECT_GE(EndOf(node, node.meta.name) - sizeof(node.meta.name), read_end);
  EXPECT_GE(EndOf(node, node.meta.labels) - sizeof(node.meta.labels), read_end);
  EXPECT_GE(EndOf(node, node.meta.owner_references) - sizeof(node.meta.owner_references), read_end);
}

}  // namespace
}  // namespace mpsim
