#include "sim/list_diff.h"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "api/indexes.h"
#include "util/prefetch.h"

namespace mpsim {
namespace {

void SortUnique(std::vector<std::string_view>* v) {
  // Many lists are kept sorted (some providers sort their providerIDList): skip the sort.
  if (!std::is_sorted(v->begin(), v->end())) std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
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
    ForEachProbed(entries, [this](const SharedString* s, uint64_t h, size_t i) {
      if (slots_[i].entry == nullptr) slots_[i] = {h, s}, ++texts_;
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
  size_t texts() const { return texts_; }  // the filled slots

  // f(entry, its hash, Probe's slot for it) for each entry, in order. Both
  // reads miss at 100k (the buffers and the table are scattered), so each is
  // started a few entries ahead: all the hashes in a first pass, then each
  // entry's home slot.
  template <class F>
  void ForEachProbed(const std::vector<const SharedString*>& entries, F f) const {
    const size_t n = entries.size();
    std::vector<uint64_t> hashes(n);
    for (size_t i = 0; i < n; ++i) {
      if (i + kPrefetchAhead < n) entries[i + kPrefetchAhead]->Prefetch();
      hashes[i] = entries[i]->Hash();
    }
    const size_t mask = slots_.size() - 1;
    for (size_t i = 0; i < n; ++i) {
      if (i + kPrefetchAhead < n) PrefetchRead(&slots_[hashes[i + kPrefetchAhead] & mask]);
      f(entries[i], hashes[i], Probe(*entries[i], hashes[i]));
    }
  }

 private:
  std::vector<Slot> slots_;
  size_t texts_ = 0;
};

// Lists in no known order (a regional group may list its instances zone by zone,
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
  // A bit per slot, set when `after` has its text.
  std::vector<uint64_t> kept((table.slots().size() + 63) / 64);
  ListDiff d;
  table.ForEachProbed(after, [&](const SharedString* s, uint64_t, size_t i) {
    if (table.slots()[i].entry != nullptr) {
      kept[i / 64] |= uint64_t{1} << (i % 64);
    } else {
      d.added.push_back(*s);
    }
  });
  SortUnique(&d.added);
  // A list that only grew (the usual write: new Nodes got references) kept
  // every text: then no scan of the table for what is gone.
  size_t texts_kept = 0;
  for (uint64_t w : kept) texts_kept += static_cast<size_t>(std::popcount(w));
  if (texts_kept == table.texts()) return d;
  for (size_t i = 0; i < table.slots().size(); ++i) {
    const SharedString* entry = table.slots()[i].entry;
    if (entry != nullptr && !(kept[i / 64] >> (i % 64) & 1)) d.gone.push_back(*entry);
  }
  std::sort(d.gone.begin(), d.gone.end());
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

std::shared_ptr<const ListDiff> DiffNodeRefNames(const SharedList<NodeReference>& before,
                                                 const SharedList<NodeReference>& after) {
  static const char kTag = 0;  // the question's name: its address
  return after.Derived<ListDiff>(&kTag, before, [&] {
    auto names = [](const SharedList<NodeReference>& refs) {
      std::vector<const SharedString*> out;
      AppendNodeRefNames(refs, &out);
      return out;
    };
    return DiffShared(names(before), names(after),
                      {.before_sorted = NamesStrictlySorted(before),
                       .after_sorted = NamesStrictlySortedFrom(after, before)});
  });
}

}  // namespace mpsim
