#include "sim/list_diff.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <unordered_set>

#include "api/string_hash.h"

namespace mpsim {
namespace {

// Entries shared between list versions view the same bytes.
bool Same(std::string_view a, std::string_view b) {
  return (a.data() == b.data() && a.size() == b.size()) || a == b;
}

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

bool StrictlySorted(std::vector<std::string_view>::const_iterator first,
                    std::vector<std::string_view>::const_iterator last) {
  return std::adjacent_find(first, last, std::greater_equal<>()) == last;
}

// Both lists strictly sorted, checking their common head and tail once.
bool BothStrictlySorted(const std::vector<std::string_view>& before,
                        const std::vector<std::string_view>& after, size_t head, size_t tail) {
  auto middle_sorted = [&](const std::vector<std::string_view>& v) {
    // The middle with one neighbour of the head and of the tail on each side.
    auto first = v.begin() + (head > 0 ? head - 1 : 0);
    auto last = v.end() - (tail > 0 ? tail - 1 : 0);
    return StrictlySorted(first, last);
  };
  return StrictlySorted(before.begin(), before.begin() + head) &&
         StrictlySorted(before.end() - tail, before.end()) && middle_sorted(before) &&
         middle_sorted(after);
}

// Both lists strictly sorted: the entries of the common head and tail are in
// both lists and in neither middle, so one merge of the middles is the answer.
ListDiff MergeDifference(const std::vector<std::string_view>& before,
                         const std::vector<std::string_view>& after, size_t head, size_t tail) {
  ListDiff d;
  auto b = before.begin() + head, be = before.end() - tail;
  auto a = after.begin() + head, ae = after.end() - tail;
  while (b != be && a != ae) {
    if (b->data() == a->data() && b->size() == a->size()) {
      ++b, ++a;
      continue;
    }
    const int c = b->compare(*a);
    if (c < 0) {
      d.gone.push_back(*b++);
    } else if (c > 0) {
      d.added.push_back(*a++);
    } else {
      ++b, ++a;
    }
  }
  d.gone.insert(d.gone.end(), b, be);
  d.added.insert(d.added.end(), a, ae);
  return d;
}

std::vector<std::string_view> Views(const std::vector<const SharedString*>& list) {
  std::vector<std::string_view> out;
  out.reserve(list.size());
  for (const SharedString* s : list) out.push_back(*s);
  return out;
}

}  // namespace

ListDiff DiffShared(const std::vector<const SharedString*>& before,
                    const std::vector<const SharedString*>& after, KnownOrder known) {
  if (!known.before_sorted || !known.after_sorted) {
    return DiffLists(Views(before), Views(after), known);
  }
  ListDiff d;
  auto b = before.begin(), a = after.begin();
  while (b != before.end() && a != after.end()) {
    if ((*b)->identity() == (*a)->identity()) {
      ++b, ++a;
      continue;
    }
    const int c = std::string_view(**b).compare(**a);
    if (c < 0) {
      d.gone.push_back(**b++);
    } else if (c > 0) {
      d.added.push_back(**a++);
    } else {
      ++b, ++a;
    }
  }
  for (; b != before.end(); ++b) d.gone.push_back(**b);
  for (; a != after.end(); ++a) d.added.push_back(**a);
  return d;
}

ListDiff DiffLists(std::vector<std::string_view> before, std::vector<std::string_view> after,
                   KnownOrder known) {
  size_t head = 0;
  while (head < before.size() && head < after.size() && Same(before[head], after[head])) ++head;
  size_t tail = 0;
  while (tail < before.size() - head && tail < after.size() - head &&
         Same(before[before.size() - 1 - tail], after[after.size() - 1 - tail])) {
    ++tail;
  }
  if (known.before_sorted && known.after_sorted) {
    return MergeDifference(before, after, head, tail);
  }
  // Providers that list in name order (CAPZ sorts, the test cloud lists its
  // instances by name) insert anywhere: merge instead of sorting or hashing.
  if (BothStrictlySorted(before, after, head, tail)) {
    return MergeDifference(before, after, head, tail);
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
  std::unordered_set<std::string_view, StringHash> middle(mid_before.begin(), mid_before.end());
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
