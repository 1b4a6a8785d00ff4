// The objects of one kind by namespace/name, as the API server's stores and the
// informers' caches hold them: in key order for List, hashed for Gets.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "api/meta.h"
#include "util/prefetch.h"
#include "util/string_hash.h"

namespace mpsim {

// Each object sits in a cell of its own, and two structures point at the
// cells: a vector in key order, which a List walks, and a flat
// open-addressing index, whose slots hold the key and the object too, so a
// Get reads one slot. The cells are 16 bytes each, side by side: a List of
// 10,000 Nodes reads 160 KB of them where a tree's walk costs a cache miss
// per node, and a Put in place of an object writes its cell and slot only.
// Linear probing at a load of at most one half; erasure shifts the run back,
// so no tombstones pile up. The index is never iterated, so its order cannot
// reach an output.
template <class T>
class KeyedObjects {
 public:
  using Ptr = std::shared_ptr<const T>;

  KeyedObjects() = default;
  KeyedObjects(const KeyedObjects&) = delete;  // the vectors point into cells_
  KeyedObjects& operator=(const KeyedObjects&) = delete;

  size_t size() const { return size_; }

  // The cells in key order, none empty. Kept between calls: new keys are
  // merged in (a binary search each, or one merge when there are many), and
  // the cells of erased keys are dropped and then reused.
  const std::vector<const Ptr*>& InOrder() const {
    if (!erased_.empty()) DropErased();
    if (!inserted_.empty()) MergeInserted();
    return in_order_;
  }

  // Calls f(const Ptr&) for each object, in key order.
  template <class F>
  void ForEach(F&& f) const {
    for (const Ptr* cell : InOrder()) f(*cell);
  }

  // A copy as a map, for the rare readers that want one (tests, a scenario's
  // machine deletion).
  std::map<ObjectKey, Ptr> Ordered() const {
    std::map<ObjectKey, Ptr> out;
    for (const Ptr* cell : InOrder()) out.emplace_hint(out.end(), (*cell)->meta.Key(), *cell);
    return out;
  }

  // The object with this key, or nullptr.
  const Ptr* Find(ObjectKeyRef key) const {
    const Slot* s = FindSlot(key);
    return s == nullptr ? nullptr : s->cell;
  }

  // Find of each key, in order. Each slot holds its key, so a lookup reads
  // one slot and not the object; the slots' misses are started
  // kPrefetchAhead keys early, so they overlap: the informer answers a
  // reconcile's Get per nodeRef here. Answers are the objects themselves
  // (nullptr where absent), uncounted: the caller takes whatever count it needs.
  void FindAll(const std::vector<ObjectKeyRef>& keys, std::vector<const T*>* out) const {
    const size_t n = keys.size();
    std::vector<uint64_t> hashes(n);
    for (size_t i = 0; i < n; ++i) {
      // A name's bytes are a miss of their own: start them a few keys ahead.
      if (i + kPrefetchAhead < n) PrefetchRead(keys[i + kPrefetchAhead].name.data());
      hashes[i] = ObjectKeyHash{}(keys[i]);
    }
    out->clear();
    out->reserve(n);
    for (size_t i = 0; i < n; ++i) {
      if (i + kPrefetchAhead < n) {
        PrefetchSlot(hashes[i + kPrefetchAhead]);
        PrefetchRead(keys[i + kPrefetchAhead].name.data());  // gone from cache since hashed
      }
      const Slot* s = FindSlot(keys[i], hashes[i]);
      out->push_back(s == nullptr ? nullptr : s->obj);
    }
  }

  // Stores obj under its key, in place of any object there.
  // REQUIRES: obj != nullptr.
  void Put(Ptr obj) {
    const ObjectKeyRef key{obj->meta.ns, obj->meta.name};
    const uint64_t h = ObjectKeyHash{}(key);
    if (Slot* s = FindSlot(key, h)) {
      s->obj = obj.get();
      *s->cell = std::move(obj);
      return;
    }
    if (2 * (size_ + 1) > slots_.size()) Grow();
    Ptr* cell = NewCell();
    inserted_.push_back(cell);
    Place(Slot{h, cell, obj.get(), InlineKey::Of(key)});
    *cell = std::move(obj);
    ++size_;
  }

  // Removes the object with this key, if any. The object may be freed here,
  // so `key` must not view into it past this call.
  void Erase(ObjectKeyRef key) {
    Slot* s = FindSlot(key);
    if (s == nullptr) return;
    s->cell->reset();  // left empty in the vectors until the next InOrder
    erased_.push_back(s->cell);
    size_t hole = static_cast<size_t>(s - slots_.data());
    slots_[hole] = Slot{};
    --size_;
    // Backward-shift deletion: pull later entries of the run into the hole
    // when the hole lies between their home slot and where they sit.
    for (size_t i = (hole + 1) & mask(); slots_[i].cell != nullptr; i = (i + 1) & mask()) {
      const size_t home = slots_[i].hash & mask();
      if (((i - home) & mask()) >= ((i - hole) & mask())) {
        slots_[hole] = slots_[i];
        slots_[i] = Slot{};
        hole = i;
      }
    }
  }

 private:
  // A key short enough to sit in its slot (every Node name mpsim makes is):
  // both lengths, then the namespace and name bytes, zero-padded, so two
  // keys are equal when their blocks are. kLong marks a key kept only in
  // its object.
  struct InlineKey {
    static constexpr uint8_t kLong = 0xff;
    static constexpr size_t kText = 30;
    uint8_t ns_len = kLong;
    uint8_t name_len = kLong;
    char text[kText] = {};

    static InlineKey Of(ObjectKeyRef k) {
      InlineKey out;
      if (k.ns.size() + k.name.size() > kText) return out;
      out.ns_len = static_cast<uint8_t>(k.ns.size());
      out.name_len = static_cast<uint8_t>(k.name.size());
      std::memcpy(out.text, k.ns.data(), k.ns.size());
      std::memcpy(out.text + k.ns.size(), k.name.data(), k.name.size());
      return out;
    }
    bool fits() const { return name_len != kLong; }
    bool operator==(const InlineKey& o) const { return std::memcmp(this, &o, sizeof o) == 0; }
  };
  static_assert(sizeof(InlineKey) == 32);

  // One cache line: a lookup that finds its key in the home slot reads
  // nothing else.
  struct alignas(64) Slot {
    uint64_t hash = 0;
    Ptr* cell = nullptr;     // nullptr: empty slot
    const T* obj = nullptr;  // the cell's object, so that a Get need not read the cell
    InlineKey key;
  };

  // Key order, as ObjectKey's: namespace, then name.
  static bool CellLess(const Ptr* a, const Ptr* b) {
    const ObjectMeta& x = (*a)->meta;
    const ObjectMeta& y = (*b)->meta;
    return std::tie(x.ns, x.name) < std::tie(y.ns, y.name);
  }

  size_t mask() const { return slots_.size() - 1; }

  Slot* FindSlot(ObjectKeyRef key) { return FindSlot(key, ObjectKeyHash{}(key)); }
  Slot* FindSlot(ObjectKeyRef key, uint64_t h) {
    if (slots_.empty()) return nullptr;
    const InlineKey probe = InlineKey::Of(key);
    for (size_t i = h & mask(); slots_[i].cell != nullptr; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.hash != h) continue;
      // A long key is never equal to an inline one: their lengths differ.
      if (probe.fits() ? s.key == probe
                       : !s.key.fits() && BytesEqual(s.obj->meta.name, key.name) &&
                             BytesEqual(s.obj->meta.ns, key.ns)) {
        return &slots_[i];
      }
    }
    return nullptr;
  }
  const Slot* FindSlot(ObjectKeyRef key) const {
    return const_cast<KeyedObjects*>(this)->FindSlot(key);
  }
  const Slot* FindSlot(ObjectKeyRef key, uint64_t h) const {
    return const_cast<KeyedObjects*>(this)->FindSlot(key, h);
  }
  void PrefetchSlot(uint64_t h) const {
    if (!slots_.empty()) PrefetchRead(&slots_[h & mask()]);
  }
  void Place(const Slot& s) {
    size_t i = s.hash & mask();
    while (slots_[i].cell != nullptr) i = (i + 1) & mask();
    slots_[i] = s;
  }

  void Grow() {
    std::vector<Slot> old(std::max<size_t>(16, slots_.size() * 2));
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.cell != nullptr) Place(s);
    }
  }

  // A cell no vector points at: one freed by DropErased, else a new one.
  Ptr* NewCell() {
    if (!free_.empty()) {
      Ptr* cell = free_.back();
      free_.pop_back();
      return cell;
    }
    return &cells_.emplace_back();
  }

  void DropErased() const {
    auto empty = [](const Ptr* cell) { return *cell == nullptr; };
    std::erase_if(in_order_, empty);
    std::erase_if(inserted_, empty);
    free_.insert(free_.end(), erased_.begin(), erased_.end());
    erased_.clear();
  }

  // Few new keys: each goes where a binary search puts it, and the vector is
  // copied once. Many: one merge of the two sorted runs.
  void MergeInserted() const {
    std::sort(inserted_.begin(), inserted_.end(), CellLess);
    std::vector<const Ptr*> merged;
    merged.reserve(in_order_.size() + inserted_.size());
    if (inserted_.size() * 16 > in_order_.size()) {
      std::merge(in_order_.begin(), in_order_.end(), inserted_.begin(), inserted_.end(),
                 std::back_inserter(merged), CellLess);
    } else {
      auto from = in_order_.begin();
      for (const Ptr* cell : inserted_) {
        auto at = std::upper_bound(from, in_order_.end(), cell, CellLess);
        merged.insert(merged.end(), from, at);
        merged.push_back(cell);
        from = at;
      }
      merged.insert(merged.end(), from, in_order_.end());
    }
    in_order_.swap(merged);
    inserted_.clear();
  }

  std::deque<Ptr> cells_;             // stable addresses; an empty one is free or just erased
  mutable std::vector<Ptr*> free_;    // cells no vector points at
  mutable std::vector<Ptr*> erased_;  // emptied since the last InOrder
  mutable std::vector<const Ptr*> in_order_;  // key order, as of the last InOrder
  mutable std::vector<const Ptr*> inserted_;  // cells of keys put since, unsorted
  std::vector<Slot> slots_;                   // size is zero or a power of two
  size_t size_ = 0;
};

}  // namespace mpsim
