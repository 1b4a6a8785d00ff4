// A map from string views to values, built in bulk and then only looked up:
// entries in one vector, found through a flat open-addressing index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "util/prefetch.h"
#include "util/shared_string.h"
#include "util/string_hash.h"

namespace mpsim {

// The keys are views: whoever fills the map keeps their bytes alive (the
// usual key views a string inside the value). Iteration follows insertion
// order, so no hash order can reach an output.
//
// A find costs one slot of the index (eight bytes, holding part of the hash)
// and the entry it names; a std::unordered_map costs a bucket, a chain node
// and a heap node, each a cache miss in a 10,000-entry map. Callers that look
// up many keys hash them first and call Prefetch a few keys ahead, so the
// misses of consecutive lookups overlap.
template <class V>
class FlatViewMap {
 public:
  using value_type = std::pair<std::string_view, V>;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  FlatViewMap() = default;
  FlatViewMap(std::initializer_list<value_type> entries) {
    reserve(entries.size());
    for (const value_type& e : entries) InsertOrAssign(e.first, e.second);
  }

  static uint64_t Hash(std::string_view key) { return HashBytes(key); }

  // The entry with this key, or end(). `hash` is Hash(key).
  const_iterator find(std::string_view key, uint64_t hash) const {
    if (index_.empty()) return end();
    for (size_t i = hash & mask();; i = (i + 1) & mask()) {
      const Slot s = index_[i];
      if (s.entry == 0) return end();
      if (s.tag == Tag(hash) && StringEq{}(entries_[s.entry - 1].first, key)) {
        return entries_.begin() + (s.entry - 1);
      }
    }
  }
  const_iterator find(std::string_view key) const { return find(key, Hash(key)); }
  // A SharedString keeps its hash: the find reads its bytes only to compare.
  const_iterator find(const SharedString& key) const { return find(key, key.Hash()); }
  const_iterator find(const std::string& key) const { return find(std::string_view(key)); }
  const_iterator find(const char* key) const { return find(std::string_view(key)); }
  // Starts loading the index slot that a find of `hash` reads first.
  void Prefetch(uint64_t hash) const {
    if (!index_.empty()) PrefetchRead(&index_[hash & mask()]);
  }

  // Starts the loads of a later find of `hash` in three calls made in the
  // order `step` 3, 2, 1, a few finds apart, so that the misses of finds made
  // one after another overlap: the index slot, the entry it names, the key's
  // bytes. Step 1 returns that entry (not yet compared with any key), for a
  // caller that also loads what its value names; the others return nullptr.
  const value_type* PrefetchFind(uint64_t hash, int step) const {
    if (index_.empty()) return nullptr;
    if (step == 3) {
      Prefetch(hash);
      return nullptr;
    }
    const Slot s = index_[hash & mask()];
    if (s.entry == 0) return nullptr;
    const value_type* e = &entries_[s.entry - 1];
    if (step == 2) {
      PrefetchRead(e);
      return nullptr;
    }
    PrefetchRead(e->first.data());
    return e;
  }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const V& at(std::string_view key) const { return find(key)->second; }

  // Room for n entries without growing the index.
  void reserve(size_t n) {
    entries_.reserve(n);
    if (2 * n > index_.size()) Rehash(2 * n);
  }
  // Adds the entry, or replaces the one with this key: key and Node both, so
  // that the key keeps viewing the Node the entry holds. `hash` is Hash(key).
  void InsertOrAssign(std::string_view key, V value, uint64_t hash) {
    if (2 * (entries_.size() + 1) > index_.size()) Rehash(2 * (entries_.size() + 1));
    size_t i = hash & mask();
    for (; index_[i].entry != 0; i = (i + 1) & mask()) {
      value_type& e = entries_[index_[i].entry - 1];
      if (index_[i].tag == Tag(hash) && StringEq{}(e.first, key)) {
        e = {key, std::move(value)};
        return;
      }
    }
    entries_.emplace_back(key, std::move(value));
    index_[i] = Slot{Tag(hash), static_cast<uint32_t>(entries_.size())};
  }
  void InsertOrAssign(std::string_view key, V value) {
    InsertOrAssign(key, std::move(value), Hash(key));
  }

 private:
  struct Slot {
    uint32_t tag = 0;    // the hash's high half: most misses end without the entry
    uint32_t entry = 0;  // 1 + index into entries_; 0: empty
  };
  static uint32_t Tag(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }
  size_t mask() const { return index_.size() - 1; }

  // A power of two at least `min_slots`, at a load of at most one half.
  void Rehash(size_t min_slots) {
    size_t n = 16;
    while (n < min_slots) n *= 2;
    index_.assign(n, Slot{});
    for (size_t e = 0; e < entries_.size(); ++e) {
      const uint64_t h = Hash(entries_[e].first);
      size_t i = h & mask();
      while (index_[i].entry != 0) i = (i + 1) & mask();
      index_[i] = Slot{Tag(h), static_cast<uint32_t>(e + 1)};
    }
  }

  std::vector<value_type> entries_;
  std::vector<Slot> index_;  // size is zero or a power of two
};

}  // namespace mpsim
