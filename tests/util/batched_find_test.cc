#include "util/batched_find.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/flat_view_map.h"
#include "util/shared_string.h"

namespace mpsim {
namespace {

struct Item {
  std::string name;
};

using ItemMap = FlatViewMap<std::shared_ptr<const Item>>;
using MaybeKey = std::optional<std::pair<std::string_view, uint64_t>>;

// The answers of BatchedFind over `keys`, as names ("-" where none).
std::vector<std::string> Batched(const ItemMap& map, const std::vector<SharedString>& keys) {
  auto key = [](const SharedString& k) -> MaybeKey {
    if (k.empty()) return std::nullopt;  // a key that can never match
    return WholeKey(k);
  };
  std::vector<std::string> out;
  for (const Item* item :
       BatchedFind<std::shared_ptr<const Item>, std::vector<SharedString>, decltype(key)>(map, keys,
                                                                                          key)) {
    out.push_back(item == nullptr ? "-" : item->name);
  }
  return out;
}

// The same, as a plain loop of finds.
std::vector<std::string> Looped(const ItemMap& map, const std::vector<SharedString>& keys) {
  std::vector<std::string> out;
  for (const SharedString& k : keys) {
    auto it = k.empty() ? map.end() : map.find(k);
    out.push_back(it == map.end() ? "-" : it->second->name);
  }
  return out;
}

class BatchedFindTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    for (int i = 0; i < 200; ++i) {
      auto item = std::make_shared<Item>(Item{"item-" + std::to_string(i)});
      map_.InsertOrAssign(item->name, item);
    }
  }
  ItemMap map_;
};

// Every length, from none to more than every stage of loads ahead: present
// keys, absent keys and keys that are no key, in the list's order.
TEST_P(BatchedFindTest, AnswersAsALoopOfFinds) {
  std::vector<SharedString> keys;
  for (int i = 0; i < GetParam(); ++i) {
    if (i % 7 == 3) {
      keys.emplace_back("absent-" + std::to_string(i));
    } else if (i % 11 == 5) {
      keys.emplace_back();
    } else {
      keys.emplace_back("item-" + std::to_string((i * 37) % 200));
    }
  }
  EXPECT_EQ(Batched(map_, keys), Looped(map_, keys));
  EXPECT_EQ(Batched(map_, keys).size(), keys.size());
}

INSTANTIATE_TEST_SUITE_P(Lengths, BatchedFindTest,
                         ::testing::Values(0, 1, 2, 3, 5, 8, 13, 31, 32, 33, 64, 150));

TEST(BatchedFindEmptyMap, FindsNothing) {
  ItemMap empty;
  const std::vector<SharedString> keys = {"a", "b", ""};
  EXPECT_EQ(Batched(empty, keys), (std::vector<std::string>{"-", "-", "-"}));
}

}  // namespace
}  // namespace mpsim
