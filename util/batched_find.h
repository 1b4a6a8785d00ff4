// A loop of finds in a FlatViewMap, run as one batch: the finds of a list of
// keys, in order, each loading its memory a few keys early, so that the cache
// misses of consecutive finds overlap where a plain loop waits for each.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "util/flat_view_map.h"
#include "util/object_lines.h"
#include "util/prefetch.h"
#include "util/shared_string.h"

namespace mpsim {

// A key of BatchedFind: all of `s`, with the hash its buffer keeps.
using BatchedKey = std::optional<std::pair<std::string_view, uint64_t>>;
inline BatchedKey WholeKey(const SharedString& s) {
  return std::make_pair(std::string_view(s), s.Hash());
}

namespace batched_find {
template <class T>
const T* Pointee(const std::shared_ptr<const T>& p) {
  return p.get();
}
template <class T>
const T* Pointee(const T* p) {
  return p;
}
}  // namespace batched_find

// The range of `map.find(key_of(e))` for each element e of `source`, in
// order: each is the found entry's value (a pointer to its object), or
// nullptr where the key is absent or key_of(e) is nullopt. key_of returns the
// key and its hash (FlatViewMap::Hash), as
// std::optional<std::pair<std::string_view, uint64_t>>; what it reads of an
// element is loaded first through PrefetchHotLines(e). The map and the source
// must outlive the range.
template <class V, class Source, class KeyOf>
class BatchedFind {
 public:
  using Object = std::remove_cvref_t<decltype(*batched_find::Pointee(std::declval<const V&>()))>;

  BatchedFind(const FlatViewMap<V>& map, const Source& source, KeyOf key_of)
      : map_(map), source_(source), n_(source.size()), key_of_(key_of) {}

  class iterator {
   public:
    iterator(const BatchedFind* b, size_t i) : b_(b), i_(i) {
      if (b_ != nullptr) b_->Advance(i_);
    }
    const Object* operator*() const { return b_->At(i_); }
    iterator& operator++() {
      b_->Advance(++i_);
      return *this;
    }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    const BatchedFind* b_;
    size_t i_;
  };
  iterator begin() const { return iterator(this, 0); }
  iterator end() const { return iterator(nullptr, n_); }

 private:
  // Each stage runs this many keys ahead of the next: what the key is made
  // of, the key's hash and its index slot, the entry, the object, and (half
  // a stage ahead) the lines of the object that a reader reads first.
  static constexpr size_t kStage = kPrefetchAhead;
  static constexpr size_t kRing = 4 * kStage;  // > the keys in flight
  using Key = std::optional<std::pair<std::string_view, uint64_t>>;
  using Entry = typename FlatViewMap<V>::value_type;

  // The iteration has reached key i: move every stage one key on.
  void Advance(size_t i) const {
    if (i == 0) {
      for (size_t j = 0; j < 4 * kStage && j < n_; ++j) PrefetchHotLines(source_[j]);
      for (size_t j = 0; j < 3 * kStage && j < n_; ++j) Hash(j);
      for (size_t j = 0; j < 2 * kStage && j < n_; ++j) Entry2(j);
      for (size_t j = 0; j < kStage && j < n_; ++j) Object1(j);
    }
    if (i + 4 * kStage < n_) PrefetchHotLines(source_[i + 4 * kStage]);
    if (i + 3 * kStage < n_) Hash(i + 3 * kStage);
    if (i + 2 * kStage < n_) Entry2(i + 2 * kStage);
    if (i + kStage < n_) Object1(i + kStage);
    if (i + kStage / 2 < n_) {
      if (const Entry* e = entries_[(i + kStage / 2) % kRing]) {
        PrefetchHotLines(*batched_find::Pointee(e->second));
      }
    }
  }
  void Hash(size_t j) const {
    keys_[j % kRing] = key_of_(source_[j]);
    entries_[j % kRing] = nullptr;
    if (keys_[j % kRing]) map_.PrefetchFind(keys_[j % kRing]->second, 3);
  }
  void Entry2(size_t j) const {
    if (const Key& k = keys_[j % kRing]) map_.PrefetchFind(k->second, 2);
  }
  void Object1(size_t j) const {
    const Key& k = keys_[j % kRing];
    if (!k) return;
    // The entry the slot names, not yet compared with the key: loading its
    // object is only a hint, and the object is alive (the map holds it).
    const Entry* e = map_.PrefetchFind(k->second, 1);
    entries_[j % kRing] = e;
    if (e != nullptr) PrefetchObjectLines(batched_find::Pointee(e->second));
  }
  const Object* At(size_t i) const {
    const Key& k = keys_[i % kRing];
    if (!k) return nullptr;
    auto it = map_.find(k->first, k->second);
    return it == map_.end() ? nullptr : batched_find::Pointee(it->second);
  }

  const FlatViewMap<V>& map_;
  const Source& source_;
  size_t n_;
  KeyOf key_of_;
  mutable std::array<Key, kRing> keys_{};
  mutable std::array<const Entry*, kRing> entries_{};
};

}  // namespace mpsim
