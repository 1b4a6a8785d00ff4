// Where the API server's store puts each version of an object in memory:
// the Node's read fields and its count block share two cache lines
// (eighteenth round of docs/PERFORMANCE.md; the field order is in
// tests/api/node_layout_test.cc).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "api/line_aligned.h"
#include "api/objects.h"
#include "sim/object_store.h"

namespace mpsim {
namespace {

class FixedClock : public Clock {
 public:
  Time Now() const override { return 0; }
};

// A stored version's block (count, then object) starts on a cache line, so
// the count and the Node's first 112 bytes are the block's first two lines.
TEST(ObjectStoreLayoutTest, StoredNodeVersionsStartOnACacheLine) {
  FixedClock clock;
  ServerCounters counters{.clock = &clock};
  ObjectStore<Node> store(&counters);
  for (int i = 0; i < 20; ++i) {
    Node node;
    node.meta.name = "n-" + std::to_string(i);
    ASSERT_TRUE(store.Create(&node).ok());
    const auto stored = store.Find(ObjectKeyRef{"", node.meta.name});
    ASSERT_NE(stored, nullptr);
    const auto at = reinterpret_cast<std::uintptr_t>(stored.get());
    EXPECT_EQ(at % kCacheLine, 16u) << i;  // libstdc++'s count block: 16 bytes
  }
}

}  // namespace
}  // namespace mpsim
