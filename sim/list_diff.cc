#include "sim/list_diff.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <unordered_set>

#include "api/prefetch.h"
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

// The texts of `before`, each once, in an open-addressing table keyed by the
// hash each buffer keeps: a lookup reads the entry's buffer, and a slot's
// only when the hashes agree and the buffers differ.
class TextTable {
 public:
  struct Slot {
    uint64_t hash = 0;
    const SharedString* entry = nullptr;  // nullptr: empty
  };

  explicit TextTable(const std::vector<const SharedString*>& entries) {
    size_t size = 16;
    while (size < 2 * entries.size()) size *= 2;
    slots_.assign(size, Slot{});
    ForEachHashed(entries, [this](const SharedString* s, uint64_t h) {
      const size_t i = Probe(*s, h);
      if (slots_[i].entry == nullptr) slots_[i] = {h, s};
    });
  }

  // The slot holding `s`'s text, or the empty slot where it would go.
  size_t Probe(const SharedString& s, uint64_t h) const {
    const size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    for (; slots_[i].entry != nullptr; i = (i + 1) & mask) {
      const Slot& t = slots_[i];
      if (t.hash == h && (t.entry->identity() == s.identity() || t.entry->str() == s.str())) break;
    }
    return i;
  }
  const std::vector<Slot>& slots() const { return slots_; }

  // f(entry, its hash) for each entry, the buffers loaded a few entries ahead.
  template <class F>
  static void ForEachHashed(const std::vector<const SharedString*>& entries, F f) {
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i + kPrefetchAhead < entries.size()) entries[i + kPrefetchAhead]->Prefetch();
      f(entries[i], entries[i]->Hash());
    }
  }

 private:
  std::vector<Slot> slots_;
};

// Lists in no known order (a regional MIG lists its instances zone by zone,
// so its nodeRefs are not in name order): a hashed join, O(n) reads of the
// buffers where sorting both lists read each O(log n) times.
ListDiff HashedDifference(const std::vector<const SharedString*>& before,
                          const std::vector<const SharedString*>& after) {
  // A write that left the list as it was shares every buffer in place.
  if (std::equal(before.begin(), before.end(), after.begin(), after.end(),
                 [](const SharedString* a, const SharedString* b) {
                   return a->identity() == b->identity();
                 })) {
    return {};
  }
  const TextTable table(before);
  std::vector<bool> kept(table.slots().size());
  ListDiff d;
  TextTable::ForEachHashed(after, [&](const SharedString* s, uint64_t h) {
    const size_t i = table.Probe(*s, h);
    if (table.slots()[i].entry != nullptr) {
      kept[i] = true;
    } else {
      d.added.push_back(*s);
    }
  });
  for (size_t i = 0; i < kept.size(); ++i) {
    const SharedString* entry = table.slots()[i].entry;
    if (entry != nullptr && !kept[i]) d.gone.push_back(*entry);
  }
  std::sort(d.gone.begin(), d.gone.end());
  SortUnique(&d.added);
  return d;
}

}  // namespace

ListDiff DiffShared(const std::vector<const SharedString*>& before,
                    const std::vector<const SharedString*>& after, KnownOrder known) {
  if (!known.before_sorted || !known.after_sorted) return HashedDifference(before, after);
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
