#include "util/line_aligned.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "api/meta.h"
#include "api/objects.h"

namespace mpsim {
namespace {

bool OnALine(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kCacheLine == 0; }

// Every block starts on a line and can be written end to end (the sanitizers
// check the end), whatever malloc's own offset was.
TEST(LineAligned, BlocksOfEverySizeStartOnALine) {
  LineAligned<char> alloc;
  std::vector<std::pair<char*, size_t>> blocks;
  for (size_t n = 1; n <= 300; n += 7) {
    char* p = alloc.allocate(n);
    EXPECT_TRUE(OnALine(p)) << n;
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<char>(i);
    blocks.emplace_back(p, n);
  }
  for (auto [p, n] : blocks) {
    EXPECT_EQ(p[n - 1], static_cast<char>(n - 1));
    alloc.deallocate(p, n);
  }
}

// What the reconcile passes read first of each Node: its annotations'
// entries and its conditions' buffer, each from the start of a line.
TEST(LineAligned, NodeAnnotationsAndConditionsStartOnALine) {
  Node node;
  node.meta.annotations["cluster.x-k8s.io/cluster-name"] = "c";
  node.meta.annotations["cluster.x-k8s.io/owner-kind"] = "MachinePool";
  node.status.conditions.push_back({.type = "Ready", .status = "True"});
  EXPECT_TRUE(OnALine(&*node.meta.annotations.begin()));
  EXPECT_TRUE(OnALine(node.status.conditions.data()));
  Node copy = node;  // each version of a Node gets buffers of its own
  EXPECT_TRUE(OnALine(&*copy.meta.annotations.begin()));
  EXPECT_TRUE(OnALine(copy.status.conditions.data()));
  EXPECT_EQ(copy, node);
}

}  // namespace
}  // namespace mpsim
