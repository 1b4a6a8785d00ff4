// The informer's hashed index of its cache: one flat open-addressing table whose
// slots hold the object itself, so a Get by name touches the slot and the object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "api/meta.h"

namespace mpsim {

// Maps each cached object's namespace/name to its shared pointer and to a
// caller-chosen position (the informer's ordered-map iterator). Linear
// probing at a load of at most one half; erasure shifts the run back, so no
// tombstones pile up. A node-based hash map costs a bucket, a chain link and
// a node per lookup: on a 10,000-Node cache each is a cache miss, and every
// MachinePool reconcile makes one Get per nodeRef (deleteRetiredNodes).
// Never iterated, so its order cannot reach an output.
template <class T, class Pos>
class ObjectIndex {
 public:
  using Ptr = std::shared_ptr<const T>;
  struct Slot {
    uint64_t hash = 0;
    Ptr obj;  // nullptr: empty slot
    Pos pos{};
  };

  // The slot holding the object with this key, or nullptr.
  Slot* Find(ObjectKeyRef key) {
    if (slots_.empty()) return nullptr;
    const uint64_t h = ObjectKeyHash{}(key);
    for (size_t i = h & mask(); slots_[i].obj != nullptr; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.hash == h && s.obj->meta.name == key.name && s.obj->meta.ns == key.ns) {
        return &slots_[i];
      }
    }
    return nullptr;
  }
  const Slot* Find(ObjectKeyRef key) const { return const_cast<ObjectIndex*>(this)->Find(key); }

  // REQUIRES: no object with obj's key is indexed; obj != nullptr.
  void Insert(Ptr obj, Pos pos) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    Place(Slot{ObjectKeyHash{}(ObjectKeyRef{obj->meta.ns, obj->meta.name}), std::move(obj), pos});
    ++size_;
  }

  // REQUIRES: s came from Find on this index and nothing changed it since.
  void Erase(Slot* s) {
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

  size_t size() const { return size_; }

 private:
  size_t mask() const { return slots_.size() - 1; }

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

  std::vector<Slot> slots_;  // size is zero or a power of two
  size_t size_ = 0;
};

}  // namespace mpsim
