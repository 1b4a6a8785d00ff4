// The Node's field order: what each MachinePool reconcile reads of every Node
// sits in 64 bytes side by side (docs/PERFORMANCE.md, "Kept optimisations").
#include <gtest/gtest.h>

#include <cstddef>

#include "api/objects.h"

namespace mpsim {
namespace {

// Bytes from the start of `node` to the start and to the end of `field`.
template <class F>
size_t StartOf(const Node& node, const F& field) {
  return static_cast<size_t>(reinterpret_cast<const char*>(&field) -
                             reinterpret_cast<const char*>(&node));
}
template <class F>
size_t EndOf(const Node& node, const F& field) {
  return StartOf(node, field) + sizeof field;
}

// deleteRetiredNodes and getNodeRefMap read the providerID, getNodeReferences
// the uid, the conditions and the kubelet version, patchNodes the
// annotations: all within the 64 bytes from kNodeHotLineAt. Of a vector (the conditions, the
// annotations' entries) a read takes its begin and end, the first 16 bytes. In the order of the API
// (meta first) they were spread over four or five lines.
TEST(NodeLayoutTest, FieldsEveryReconcileReadsShareTheHotLine) {
  const Node node;
  const size_t begin = kNodeHotLineAt, end = kNodeHotLineAt + 64;
  for (size_t at : {StartOf(node, node.spec.provider_id), StartOf(node, node.status.conditions),
                    StartOf(node, node.status.node_info.kubelet_version),
                    StartOf(node, node.meta.uid), StartOf(node, node.meta.annotations)}) {
    EXPECT_GE(at, begin);
  }
  EXPECT_LE(EndOf(node, node.spec.provider_id), end);
  EXPECT_LE(StartOf(node, node.status.conditions) + 16, end);
  EXPECT_LE(EndOf(node, node.status.node_info.kubelet_version), end);
  EXPECT_LE(EndOf(node, node.meta.uid), end);
  EXPECT_LE(StartOf(node, node.meta.annotations) + 16, end);
}

// The taints, which only patchNodes reads, and only once the annotations are
// all there, lie before them.
TEST(NodeLayoutTest, TaintsLeadTheNodeBeforeTheHotLine) {
  const Node node;
  EXPECT_LE(EndOf(node, node.spec.taints), kNodeHotLineAt);
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
