// Where the API server's store puts each version of an object in memory:
// the Node's read fields on one cache line (eighteenth and twentieth rounds
// of docs/PERFORMANCE.md; the field order is in tests/api/node_layout_test.cc).
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

// A stored Node version is placed so that its hot 64 bytes (from
// kNodeHotLineAt, api/objects.h) are one cache line.
TEST(ObjectStoreLayoutTest, StoredNodeVersionsPutTheHotBytesOnOneLine) {
  FixedClock clock;
  ServerCounters counters{.clock = &clock};
  ObjectStore<Node> store(&counters);
  for (int i = 0; i < 20; ++i) {
    Node node;
    node.meta.name = "n-" + std::to_string(i);
    ASSERT_TRUE(store.Create(&node).ok());
    const auto stored = store.Find(ObjectKeyRef{"", node.meta.name});
    ASSERT_NE(stored, nullptr);
    const auto hot = reinterpret_cast<std::uintptr_t>(&stored->spec.provider_id);
    EXPECT_EQ(hot % kCacheLine, 0u) << i;
  }
}

// Other kinds' blocks (count, then object) start on a line; the count block
// is libstdc++'s 16 bytes, as kSharedCountBytes assumes.
TEST(ObjectStoreLayoutTest, OtherKindsStartTheirBlockOnALine) {
  FixedClock clock;
  ServerCounters counters{.clock = &clock};
  ObjectStore<MachinePool> store(&counters);
  for (int i = 0; i < 20; ++i) {
    MachinePool mp;
    mp.meta.name = "mp-" + std::to_string(i);
    mp.meta.ns = "default";
    ASSERT_TRUE(store.Create(&mp).ok());
    const auto stored = store.Find(ObjectKeyRef{"default", mp.meta.name});
    ASSERT_NE(stored, nullptr);
    const auto at = reinterpret_cast<std::uintptr_t>(stored.get());
    EXPECT_EQ(at % kCacheLine, kSharedCountBytes) << i;
  }
}

}  // namespace
}  // namespace mpsim
