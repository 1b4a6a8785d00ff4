// Where the API server's store puts each version of an object in memory:
// the Node's read fields on one cache line (eighteenth and twentieth rounds
// of docs/PERFORMANCE.md; the field order is in tests/api/node_layout_test.cc).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/objects.h"
#include "sim/object_store.h"
#include "util/line_aligned.h"

namespace mpsim {
namespace {

class ZeroClock : public Clock {
 public:
  Time Now() const override { return 0; }
};

// Twenty versions of kind T as one store keeps them, each in a block of its own.
template <class T>
std::vector<std::shared_ptr<const T>> StoreTwenty(const std::string& ns) {
  static ZeroClock clock;
  static ServerCounters counters{.clock = &clock};
  static ObjectStore<T> store(&counters);
  std::vector<std::shared_ptr<const T>> out;
  for (int i = 0; i < 20; ++i) {
    T obj;
    obj.meta.name = "o-" + std::to_string(i);
    obj.meta.ns = ns;
    EXPECT_TRUE(store.Create(&obj).ok());
    out.push_back(store.Find(ObjectKeyRef{ns, obj.meta.name}));
  }
  return out;
}

// A stored Node version is placed so that its hot 64 bytes (from
// kNodeHotLineAt, api/objects.h) are one cache line.
TEST(ObjectStoreLayoutTest, StoredNodeVersionsPutTheHotBytesOnOneLine) {
  for (const auto& node : StoreTwenty<Node>("")) {
    ASSERT_NE(node, nullptr);
    const auto hot = reinterpret_cast<std::uintptr_t>(&node->spec.provider_id);
    EXPECT_EQ(hot % kCacheLine, 0u) << node->meta.name;
  }
}

// Other kinds' blocks (count, then object) start on a line; the count block
// is libstdc++'s 16 bytes, as kSharedCountBytes assumes.
TEST(ObjectStoreLayoutTest, OtherKindsStartTheirBlockOnALine) {
  for (const auto& mp : StoreTwenty<MachinePool>("default")) {
    ASSERT_NE(mp, nullptr);
    const auto at = reinterpret_cast<std::uintptr_t>(mp.get());
    EXPECT_EQ(at % kCacheLine, kSharedCountBytes) << mp->meta.name;
  }
}

}  // namespace
}  // namespace mpsim
