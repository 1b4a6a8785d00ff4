// A controller manager's cache of one kind: it receives the API server's watch
// events after a sampled informer lag, in resourceVersion order, and tells the
// registered handlers, as a client-go shared informer does.
#pragma once

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api/client.h"
#include "api/indexes.h"
#include "sim/distribution.h"
#include "sim/event_loop.h"
#include "sim/keyed_objects.h"
#include "sim/list_diff.h"
#include "sim/object_store.h"
#include "sim/random.h"
#include "util/flat_view_map.h"
#include "util/string_hash.h"

namespace mpsim {

// What the `field` index values of an object lost and gained between two
// versions of it (nullptr: absent).
template <class T>
std::shared_ptr<const ListDiff> DiffIndexValues(const T* old, const T* now,
                                                const std::string& field) {
  std::vector<const SharedString*> before, after;
  if (old) FieldIndexes<T>::Values(*old, field, &before);
  if (now) FieldIndexes<T>::Values(*now, field, &after);
  const KnownOrder known{.before_sorted = !old || FieldIndexes<T>::Sorted(*old, field),
                         .after_sorted = !now || FieldIndexes<T>::Sorted(*now, field)};
  return std::make_shared<const ListDiff>(DiffShared(before, after, known));
}
// The nodeName index's values are the nodeRefs' names: the pool observer
// asks the same of each MachinePool write, and only the first asker works.
inline std::shared_ptr<const ListDiff> DiffIndexValues(const MachinePool* old,
                                                       const MachinePool* now,
                                                       const std::string& field) {
  if (field != kMachinePoolNodeNameField) return DiffIndexValues<MachinePool>(old, now, field);
  static const SharedList<NodeReference> kNone;
  return DiffNodeRefNames(old ? old->status.node_refs : kNone, now ? now->status.node_refs : kNone);
}

// The keys of the cached objects whose index holds one value, in key order.
// Nearly every value names one object (a providerID, a Node name): its key is
// held inline, where a std::set made a tree node per key, 200,000 of them at
// 100,000 replicas, each a miss more per lookup.
using IndexKeys = boost::container::small_vector<ObjectKey, 1>;

template <class T>
class Informer {
 public:
  using Ptr = std::shared_ptr<const T>;
  using Handler = std::function<void(const WatchEvent<T>&)>;
  using EventType = typename WatchEvent<T>::Type;

  Informer(EventLoop* loop, ObjectStore<T>* store, DistSpec lag, Rng rng)
      : loop_(loop), lag_(std::move(lag)), rng_(rng) {
    store->Watch([this](EventType t, const Ptr&, const Ptr& obj) { OnServerEvent(t, obj); });
  }
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;
  // Readers still holding leased pointers keep every cached object.
  ~Informer() {
    if (lease_.use_count() == 1) return;
    cache_.ForEach([this](const Ptr& obj) { lease_->kept.push_back(obj); });
  }

  void AddHandler(Handler h) { handlers_.push_back(std::move(h)); }
  // A copy of the cache in key order, for tests.
  std::map<ObjectKey, Ptr> cache() const { return cache_.Ordered(); }
  size_t size() const { return cache_.size(); }
  // The cache's objects in key order (KeyedObjects::InOrder).
  const std::vector<const Ptr*>& InOrder() const { return cache_.InOrder(); }
  template <class F>
  void ForEach(F&& f) const {
    cache_.ForEach(std::forward<F>(f));
  }
  // The cached object with this key, or nullptr; a hashed lookup, as Gets
  // are the hottest cache reads.
  const Ptr* Find(ObjectKeyRef key) const { return cache_.Find(key); }
  // Find of each key, in order (nullptr where absent), overlapping the misses.
  void FindAll(const std::vector<ObjectKeyRef>& keys, std::vector<const T*>* out) const {
    cache_.FindAll(keys, out);
  }

  // A pointer to a cached object that counts on the cache's lease, not on
  // the object: a reconcile that lists 10,000 Nodes would otherwise take and
  // drop 10,000 counts, a cache miss each. While any leased pointer lives,
  // the objects the cache drops are kept in the lease, so each stays valid;
  // once none lives, they are freed at the next change. Meant for reads held
  // for one reconcile: one held longer keeps every dropped object meanwhile.
  Ptr Lease(const T* obj) const { return obj == nullptr ? nullptr : Ptr(lease_, obj); }

  // Keeps the `field` index (one of FieldIndexes<T>::Fields()) from now on,
  // over what is cached already too. Only a manager that registers an index
  // pays for it, as with controller-runtime's FieldIndexer.IndexField.
  void AddIndex(const std::string& field) {
    if (index_.count(field)) return;
    auto& values = index_[field];
    // Most lookups are of values no object holds yet (a Node's events come
    // before any pool's nodeRefs name it). At a quarter load most buckets are
    // empty, and such a lookup ends on its bucket without walking a chain.
    values.max_load_factor(0.25F);
    cache_.ForEach([&](const Ptr& obj) { Reindex(nullptr, obj.get(), field, &values); });
  }

  // The keys of cached objects whose `field` index holds `value`, in key
  // order; nullptr if no such index was added.
  const IndexKeys* Lookup(const std::string& field, std::string_view value) const {
    static const IndexKeys kNone;
    auto f = index_.find(field);
    if (f == index_.end()) return nullptr;
    auto v = f->second.find(value);
    return v == f->second.end() ? &kNone : &v->second;
  }
  // Keeps, for a field of which each object holds at most one value, the
  // maps a loop over the cache in key order builds (UniqueIndexMaps): a
  // reconcile that would build them from a List of every object reads them
  // instead. Adds update them in place; a value that goes, or passes to
  // another object, has them rebuilt once, at the next read.
  void AddUniqueIndex(const std::string& field) {
    unique_field_ = field;
    unique_dirty_ = true;
  }
  // Those maps, shared and not to be held past the reconcile; nullptr unless
  // AddUniqueIndex(`field`) was called.
  std::shared_ptr<const UniqueIndexMaps<T>> UniqueIndex(const std::string& field) const {
    if (unique_field_.empty() || field != unique_field_) return nullptr;
    if (unique_dirty_) RebuildUnique();
    return unique_;
  }

  uint64_t delivered() const { return delivered_; }

 private:
  // Events may be late but never overtake each other: a watch is one stream.
  void OnServerEvent(EventType type, const Ptr& obj) {
    Time at = std::max(last_delivery_, loop_->Now() + Sample(lag_, rng_));
    last_delivery_ = at;
    loop_->At(at, [this, type, obj] { Apply(type, obj); });
  }

  void Apply(EventType type, const Ptr& obj) {
    ++delivered_;
    const ObjectKeyRef key{obj->meta.ns, obj->meta.name};
    const Ptr* found = cache_.Find(key);
    Ptr old = found == nullptr ? nullptr : *found;
    Reindex(old.get(), type == EventType::kDeleted ? nullptr : obj.get());
    KeepUnique(old.get(), type == EventType::kDeleted ? nullptr : &obj);
    if (type == EventType::kDeleted) {
      cache_.Erase(key);
    } else {
      cache_.Put(obj);
    }
    Retire(old);
    // A cache that never saw the object treats a modification as an add.
    EventType seen = (type == EventType::kModified && !old) ? EventType::kAdded : type;
    WatchEvent<T> ev{seen, seen == EventType::kModified ? old.get() : nullptr, *obj};
    for (const Handler& h : handlers_) h(ev);
  }

  // `old` has just left the cache: the lease keeps it while leased pointers
  // live, and lets go of what it kept once none does.
  void Retire(const Ptr& old) {
    if (lease_.use_count() > 1) {
      if (old != nullptr) lease_->kept.push_back(old);
    } else if (!lease_->kept.empty()) {
      lease_->kept.clear();
    }
  }

  static const SharedString* UniqueValue(const T* obj, const std::string& field) {
    if (obj == nullptr) return nullptr;
    std::vector<const SharedString*> values;
    FieldIndexes<T>::Values(*obj, field, &values);
    return values.empty() ? nullptr : values.front();
  }
  // The map of AddUniqueIndex, kept as `old` becomes `*now` (nullptr: deleted).
  void KeepUnique(const T* old, const Ptr* now) {
    if (unique_field_.empty()) return;
    const SharedString* was = UniqueValue(old, unique_field_);
    const SharedString* is = now == nullptr ? nullptr : UniqueValue(now->get(), unique_field_);
    if (was != nullptr && (is == nullptr || !BytesEqual(*was, *is))) unique_dirty_ = true;
    if (unique_dirty_ || is == nullptr) return;
    const T& mine = **now;
    auto it = unique_->by_value.find(*is);
    if (it != unique_->by_value.end()) {
      // Of two objects with the value, the later in key order keeps it.
      const T& held = *it->second;
      const auto held_key =
          std::make_pair(std::string_view(held.meta.ns), std::string_view(held.meta.name));
      const auto my_key =
          std::make_pair(std::string_view(mine.meta.ns), std::string_view(mine.meta.name));
      if (my_key < held_key) return;
      if (my_key != held_key) {
        unique_dirty_ = true;  // the held object's name leaves the name map
        return;
      }
    }
    UniqueIndexMaps<T>& maps = OwnUnique();
    maps.by_value.InsertOrAssign(*is, *now);
    maps.by_name.InsertOrAssign(mine.meta.name, &mine);
  }
  // The maps, copied first if a reader still holds them.
  UniqueIndexMaps<T>& OwnUnique() {
    if (unique_.use_count() > 1) unique_ = std::make_shared<UniqueIndexMaps<T>>(*unique_);
    return *unique_;
  }
  void RebuildUnique() const {
    auto maps = std::make_shared<UniqueIndexMaps<T>>();
    const std::vector<const Ptr*>& all = cache_.InOrder();
    maps->by_value.reserve(all.size());
    for (const Ptr* cell : all) {
      if (const SharedString* v = UniqueValue(cell->get(), unique_field_))
        maps->by_value.InsertOrAssign(*v, *cell);
    }
    maps->by_name.reserve(maps->by_value.size());
    for (const auto& [value, obj] : maps->by_value)
      maps->by_name.InsertOrAssign(obj->meta.name, obj.get());
    unique_ = std::move(maps);
    unique_dirty_ = false;
  }

  // Moves the object's index entries from `old` values to `now` values.
  void Reindex(const T* old, const T* now) {
    if (index_.empty() || (old == nullptr && now == nullptr)) return;
    for (auto& [field, values] : index_) Reindex(old, now, field, &values);
  }
  // Found by view: a diff's values need no string of their own to look up.
  using ValueKeys = std::unordered_map<std::string, IndexKeys, StringHash, StringEq>;
  void Reindex(const T* old, const T* now, const std::string& field, ValueKeys* values) {
    if (old && now && FieldIndexes<T>::Same(*old, *now, field)) return;
    const ObjectKey key = (now ? *now : *old).meta.Key();
    // Touch only what changed: a growing list re-indexes its new entries.
    const std::shared_ptr<const ListDiff> diff = DiffIndexValues(old, now, field);
    const ListDiff& d = *diff;
    for (std::string_view v : d.gone) {
      auto it = values->find(v);
      if (it == values->end()) continue;
      IndexKeys& keys = it->second;
      auto at = std::lower_bound(keys.begin(), keys.end(), key);
      if (at == keys.end() || *at != key) continue;
      keys.erase(at);
      if (keys.empty()) values->erase(it);
    }
    for (std::string_view v : d.added) {
      auto it = values->find(v);
      if (it == values->end()) it = values->emplace(std::string(v), IndexKeys()).first;
      IndexKeys& keys = it->second;
      auto at = std::lower_bound(keys.begin(), keys.end(), key);
      if (at == keys.end() || *at != key) keys.insert(at, key);
    }
  }

  EventLoop* loop_;
  DistSpec lag_;
  Rng rng_;
  Time last_delivery_ = 0;
  uint64_t delivered_ = 0;
  KeyedObjects<T> cache_;
  struct LeaseHold {
    std::vector<Ptr> kept;  // objects dropped from the cache while leased
  };
  std::shared_ptr<LeaseHold> lease_ = std::make_shared<LeaseHold>();
  // field -> value -> keys; hashed by value because values are looked up,
  // never iterated.
  std::map<std::string, ValueKeys> index_;
  std::string unique_field_;  // AddUniqueIndex's; empty: none
  mutable std::shared_ptr<UniqueIndexMaps<T>> unique_ = std::make_shared<UniqueIndexMaps<T>>();
  mutable bool unique_dirty_ = false;
  std::vector<Handler> handlers_;
};

}  // namespace mpsim
