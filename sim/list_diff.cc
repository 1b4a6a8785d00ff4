#include "sim/list_diff.h"

#include <algorithm>
#include <iterator>
#include <unordered_set>

namespace mpsim {
namespace {

void SortUnique(std::vector<std::string_view>* v) {
  // Many lists are kept sorted (CAPZ sorts its providerIDList): skip the sort.
  if (!std::is_sorted(v->begin(), v->end())) std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

ListDiff SortedDifference(std::vector<std::string_view> before,
                          std::vector<std::string_view> after) {
  SortUnique(&before);
  SortUnique(&after);
  ListDiff d;
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(),
                      std::back_inserter(d.gone));
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                      std::back_inserter(d.added));
  return d;
}

}  // namespace

ListDiff DiffLists(std::vector<std::string_view> before, std::vector<std::string_view> after) {
  size_t head = 0;
  while (head < before.size() && head < after.size() && before[head] == after[head]) ++head;
  size_t tail = 0;
  while (tail < before.size() - head && tail < after.size() - head &&
         before[before.size() - 1 - tail] == after[after.size() - 1 - tail]) {
    ++tail;
  }
  const size_t skipped = head + tail;
  // Sorted lists that grow in the middle leave little to skip: compare whole.
  if (skipped < before.size() / 2 && skipped < after.size() / 2) {
    return SortedDifference(std::move(before), std::move(after));
  }
  std::vector<std::string_view> mid_before(before.begin() + head, before.end() - tail);
  std::vector<std::string_view> mid_after(after.begin() + head, after.end() - tail);
  // A skipped entry that also appears in a middle would make the middles'
  // difference wrong (a duplicate moved): then compare the whole lists.
  std::unordered_set<std::string_view> middle(mid_before.begin(), mid_before.end());
  middle.insert(mid_after.begin(), mid_after.end());
  if (!middle.empty()) {
    for (size_t i = 0; i < head; ++i) {
      if (middle.count(before[i])) return SortedDifference(std::move(before), std::move(after));
    }
    for (size_t i = before.size() - tail; i < before.size(); ++i) {
      if (middle.count(before[i])) return SortedDifference(std::move(before), std::move(after));
    }
  }
  return SortedDifference(std::move(mid_before), std::move(mid_after));
}

}  // namespace mpsim
