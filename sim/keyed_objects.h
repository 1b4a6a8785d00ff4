// The objects of one kind by namespace/name, as the API server's stores and the
// informers' caches hold them: ordered for List, hashed beside that for Gets.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "api/meta.h"
#include "api/prefetch.h"
#include "api/string_hash.h"

namespace mpsim {

// An ordered map and a flat open-addressing index over the same objects, kept
// in step. The index's slots hold the object and a copy of its key, so a Get
// reads one slot: a node-based hash map costs a bucket, a chain link, a node
// and the tree's node, each a cache miss on a 10,000-Node cache, and every
// MachinePool reconcile makes one Get per nodeRef (deleteRetiredNodes).
// Linear probing at a load of at most one half; erasure shifts the run back,
// so no tombstones pile up. The index is never iterated, so its order cannot
// reach an output.
template <class T>
class KeyedObjects {
 public:
  using Ptr = std::shared_ptr<const T>;
  using Map = std::map<ObjectKey, Ptr>;

  using Entry = typename Map::value_type;

  const Map& ordered() const { return ordered_; }
  size_t size() const { return size_; }

  // The entries in key order, as a vector: a List walks it with loads that
  // do not wait for each other, where the tree's walk is a chain of cache
  // misses. Kept between calls; new keys are merged in (a binary search
  // each), and an erasure has it rebuilt from the tree at the next call.
  const std::vector<const Entry*>& InOrder() const {
    if (!in_order_valid_) {
      RebuildInOrder();
    } else if (!inserted_.empty()) {
      MergeInserted();
    }
    return in_order_;
  }

  // The object with this key, or nullptr.
  const Ptr* Find(ObjectKeyRef key) const {
    const Slot* s = FindSlot(key);
    return s == nullptr ? nullptr : &s->obj;
  }

  // Find of each key, in order. Each slot holds its key, so a lookup reads
  // one slot and not the object; the slots' misses are started
  // kPrefetchAhead keys early, so they overlap: the informer answers a
  // reconcile's Get per nodeRef here. Answers are the objects themselves
  // (nullptr where absent), uncounted: the caller takes whatever count it needs.
  void FindAll(const std::vector<ObjectKeyRef>& keys, std::vector<const T*>* out) const {
    const size_t n = keys.size();
    std::vector<uint64_t> hashes(n);
    for (size_t i = 0; i < n; ++i) hashes[i] = ObjectKeyHash{}(keys[i]);
    out->clear();
    out->reserve(n);
    for (size_t i = 0; i < n; ++i) {
      if (i + kPrefetchAhead < n) {
        PrefetchSlot(hashes[i + kPrefetchAhead]);
        PrefetchRead(keys[i + kPrefetchAhead].name.data());  // gone from cache since hashed
      }
      const Slot* s = FindSlot(keys[i], hashes[i]);
      out->push_back(s == nullptr ? nullptr : s->obj.get());
    }
  }

  // Stores obj under its key, in place of any object there.
  // REQUIRES: obj != nullptr.
  void Put(Ptr obj) {
    if (Slot* s = FindSlot(ObjectKeyRef{obj->meta.ns, obj->meta.name})) {
      s->pos->second = obj;
      s->obj = std::move(obj);
      return;
    }
    auto pos = ordered_.emplace(obj->meta.Key(), obj).first;
    if (in_order_valid_) inserted_.push_back(&*pos);
    if (2 * (size_ + 1) > slots_.size()) Grow();
    const ObjectKeyRef key{obj->meta.ns, obj->meta.name};
    Place(Slot{ObjectKeyHash{}(key), std::move(obj), pos, InlineKey::Of(key)});
    ++size_;
  }

  // Removes the object with this key, if any.
  void Erase(ObjectKeyRef key) {
    Slot* s = FindSlot(key);
    if (s == nullptr) return;
    ordered_.erase(s->pos);
    in_order_valid_ = false;
    inserted_.clear();
    size_t hole = static_cast<size_t>(s - slots_.data());
    slots_[hole] = Slot{};
    --size_;
    // Backward-shift deletion: pull later entries of the run into the hole
    // when the hole lies between their home slot and where they sit.
    for (size_t i = (hole + 1) & mask(); slots_[i].obj != nullptr; i = (i + 1) & mask()) {
      const size_t home = slots_[i].hash & mask();
      if (((i - home) & mask()) >= ((i - hole) & mask())) {
        slots_[hole] = std::move(slots_[i]);
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
    Ptr obj;  // nullptr: empty slot
    typename Map::iterator pos{};
    InlineKey key;
  };

  size_t mask() const { return slots_.size() - 1; }

  Slot* FindSlot(ObjectKeyRef key) { return FindSlot(key, ObjectKeyHash{}(key)); }
  Slot* FindSlot(ObjectKeyRef key, uint64_t h) {
    if (slots_.empty()) return nullptr;
    const InlineKey probe = InlineKey::Of(key);
    for (size_t i = h & mask(); slots_[i].obj != nullptr; i = (i + 1) & mask()) {
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
  void Place(Slot s) {
    size_t i = s.hash & mask();
    while (slots_[i].obj != nullptr) i = (i + 1) & mask();
    slots_[i] = std::move(s);
  }

  void Grow() {
    std::vector<Slot> old(std::max<size_t>(16, slots_.size() * 2));
    old.swap(slots_);
    for (Slot& s : old) {
      if (s.obj != nullptr) Place(std::move(s));
    }
  }

  void RebuildInOrder() const {
    in_order_.clear();
    in_order_.reserve(ordered_.size());
    for (const Entry& e : ordered_) in_order_.push_back(&e);
    inserted_.clear();
    in_order_valid_ = true;
  }

  // Few new keys: each goes where a binary search puts it, and the vector is
  // copied once. Many: the tree's walk is cheaper than the searches.
  void MergeInserted() const {
    if (inserted_.size() * 16 > in_order_.size()) return RebuildInOrder();
    auto by_key = [](const Entry* a, const Entry* b) { return a->first < b->first; };
    std::sort(inserted_.begin(), inserted_.end(), by_key);
    std::vector<const Entry*> merged;
    merged.reserve(in_order_.size() + inserted_.size());
    auto from = in_order_.begin();
    for (const Entry* e : inserted_) {
      auto at = std::upper_bound(from, in_order_.end(), e, by_key);
      merged.insert(merged.end(), from, at);
      merged.push_back(e);
      from = at;
    }
    merged.insert(merged.end(), from, in_order_.end());
    in_order_.swap(merged);
    inserted_.clear();
  }

  Map ordered_;
  // InOrder's vector: pointers to ordered_'s entries, which stay put while
  // their key is there; valid unless a key was erased since it was made.
  mutable std::vector<const Entry*> in_order_;
  mutable std::vector<const Entry*> inserted_;  // keys put since, unsorted
  mutable bool in_order_valid_ = false;
  std::vector<Slot> slots_;  // size is zero or a power of two
  size_t size_ = 0;
};

}  // namespace mpsim
