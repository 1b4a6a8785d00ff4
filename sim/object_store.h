// One kind's objects in the simulated API server, with Kubernetes write
// semantics (resourceVersion, generation, finalizers) and a synchronous watch.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/objects.h"
#include "api/reconciler.h"
#include "api/status.h"
#include "sim/keyed_objects.h"
#include "sim/merge_patch.h"
#include "sim/request_size.h"

namespace mpsim {

// Shared by every store of one API server: one resourceVersion sequence and
// one uid sequence, as etcd's revision is global to a cluster.
struct ServerCounters {
  const Clock* clock = nullptr;
  uint64_t resource_version = 0;
  uint64_t uid = 0;
  uint64_t writes = 0;  // successful mutating calls, for reports
  // Fault injection for controllers' writes (CacheClient only; the world's
  // own writes never fail): a non-OK status fails the call before it reaches
  // the store, e.g. Conflict or a timeout. Arguments: kind, verb, key.
  std::function<Status(const char*, const char*, const ObjectKey&)> client_fault;
  // etcd's --max-request-bytes: a write whose object would be larger fails
  // (sim/request_size.h); 0: no limit.
  uint64_t max_object_bytes = 0;
};

template <class T>
class ObjectStore {
 public:
  using Ptr = std::shared_ptr<const T>;
  using EventType = typename WatchEvent<T>::Type;
  // Called synchronously, in resourceVersion order, after each change.
  using Watcher = std::function<void(EventType, const Ptr& old, const Ptr& obj)>;

  explicit ObjectStore(ServerCounters* counters) : c_(counters) {}
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;

  void Watch(Watcher w) { watchers_.push_back(std::move(w)); }
  // A copy in key order, for tests; readers in a run walk ForEach instead.
  std::map<ObjectKey, Ptr> objects() const { return objects_.Ordered(); }
  size_t size() const { return objects_.size(); }
  // Calls f(const Ptr&) for each stored object, in key order.
  template <class F>
  void ForEach(F&& f) const {
    objects_.ForEach(std::forward<F>(f));
  }

  // The stored object, shared, or nullptr.
  Ptr Find(ObjectKeyRef key) const {
    const Ptr* found = objects_.Find(key);
    return found == nullptr ? nullptr : *found;
  }
  // The objects under `keys`, in their order (nullptr where none), found as
  // one batch whose lookups overlap. The pointers hold until the next write.
  void FindAll(const std::vector<ObjectKeyRef>& keys, std::vector<const T*>* out) const {
    objects_.FindAll(keys, out);
  }

  Status Get(const ObjectKey& key, T* out) const {
    const Ptr* found = objects_.Find(key);
    if (found == nullptr) return NotFound(key);
    *out = **found;
    return Status::Ok();
  }

  Status Create(T* obj) {
    if (objects_.Find(obj->meta.Key()) != nullptr) {
      return Status::AlreadyExists(Describe(obj->meta.Key()) + " already exists");
    }
    if (Status s = CheckSize(*obj, nullptr); !s.ok()) return s;
    // Pinned: every version of the object and every reference to it copies
    // the uid, and a run's arena spares those copies a count each.
    obj->meta.uid = SharedString::Pinned(UidPrefix() + std::to_string(++c_->uid));
    obj->meta.generation = 1;
    obj->meta.creation_timestamp = c_->clock->Now();
    obj->meta.deletion_timestamp.reset();
    Commit(EventType::kAdded, nullptr, obj);
    return Status::Ok();
  }

  // Writes metadata and spec (not status), checking the resourceVersion.
  Status Update(T* obj) {
    return Write(obj, /*check_rv=*/true, /*meta_spec=*/true, /*status=*/false);
  }
  // Writes status only, checking the resourceVersion.
  Status UpdateStatus(T* obj) { return Write(obj, true, false, true); }
  // Writes metadata, spec and status without a resourceVersion check.
  Status Patch(T* obj) { return Write(obj, false, true, true); }

  // A merge patch: the changes from `base` to *obj, applied to the current
  // object (api/merge_patch.h). No resourceVersion check, as a merge patch.
  Status Patch(const T& base, T* obj) {
    const Ptr* found = objects_.Find(obj->meta.Key());
    if (found == nullptr) return NotFound(obj->meta.Key());
    const Ptr cur = *found;
    T next = *cur;
    ApplyMergePatch(base, *obj, &next);
    if (next == *cur) {  // no-op patches neither bump resourceVersion nor notify
      *obj = std::move(next);
      return Status::Ok();
    }
    if constexpr (requires { next.spec; }) {
      if (!(next.spec == cur->spec)) ++next.meta.generation;
    }
    if (next.meta.deletion_timestamp && next.meta.finalizers.empty()) {
      Remove(cur);
    } else {
      if (Status s = CheckSize(next, cur.get()); !s.ok()) return s;
      Commit(EventType::kModified, cur, &next);
    }
    *obj = std::move(next);
    return Status::Ok();
  }

  const ServerCounters* counters() const { return c_; }

  Status Delete(const ObjectKey& key) {
    const Ptr* found = objects_.Find(key);
    if (found == nullptr) return NotFound(key);
    const Ptr cur = *found;
    if (cur->meta.finalizers.empty()) {
      Remove(cur);
      return Status::Ok();
    }
    if (cur->meta.deletion_timestamp) return Status::Ok();
    T next = *cur;
    next.meta.deletion_timestamp = c_->clock->Now();
    if (Status s = CheckSize(next, cur.get()); !s.ok()) return s;
    Commit(EventType::kModified, cur, &next);
    return Status::Ok();
  }

  // A delete with an explicit propagationPolicy, as the API server's
  // registry does it (docs/reference/garbage-collection.md §2): Foreground
  // puts the foregroundDeletion finalizer on, Orphan the orphan finalizer,
  // Background takes both off; the object goes at once if no finalizer
  // remains, else it gets (or keeps) its deletionTimestamp.
  Status Delete(const ObjectKey& key, DeletionPropagation policy) {
    const Ptr* found = objects_.Find(key);
    if (found == nullptr) return NotFound(key);
    const Ptr cur = *found;
    T next = *cur;
    SetPropagationFinalizers(policy, &next.meta.finalizers);
    if (next.meta.finalizers.empty()) {
      Remove(cur);
      return Status::Ok();
    }
    if (!next.meta.deletion_timestamp) next.meta.deletion_timestamp = c_->clock->Now();
    if (next == *cur) return Status::Ok();
    if (Status s = CheckSize(next, cur.get()); !s.ok()) return s;
    Commit(EventType::kModified, cur, &next);
    return Status::Ok();
  }

 private:
  // deletionFinalizersForGarbageCollection: both finalizers off, then the
  // policy's one back on, last.
  static void SetPropagationFinalizers(DeletionPropagation policy, std::vector<std::string>* f) {
    std::erase(*f, std::string(kFinalizerOrphanDependents));
    std::erase(*f, std::string(kFinalizerDeleteDependents));
    if (policy == DeletionPropagation::kOrphan) f->push_back(kFinalizerOrphanDependents);
    if (policy == DeletionPropagation::kForeground) f->push_back(kFinalizerDeleteDependents);
  }

  static constexpr const char* Kind() { return T::kKind; }
  static std::string UidPrefix() {
    std::string k = Kind();
    for (char& ch : k) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return k + "-";
  }
  static std::string Describe(const ObjectKey& key) {
    return std::string(Kind()) + " " + key.String();
  }
  static Status NotFound(const ObjectKey& key) {
    return Status::NotFound(Describe(key) + " not found");
  }

  Status Write(T* obj, bool check_rv, bool meta_spec, bool status) {
    const Ptr* found = objects_.Find(obj->meta.Key());
    if (found == nullptr) return NotFound(obj->meta.Key());
    const Ptr cur = *found;
    if (check_rv && obj->meta.resource_version != cur->meta.resource_version) {
      return Status::Conflict(
          "the object has been modified; please apply your changes to the "
          "latest version and try again (" +
          Describe(cur->meta.Key()) + ")");
    }
    T next = *cur;
    if (meta_spec) CopyMetaAndSpec(*obj, &next);
    if constexpr (requires { next.status; }) {
      if (status) next.status = obj->status;
    }
    if (next == *cur) {  // no-op writes neither bump resourceVersion nor notify
      *obj = next;
      return Status::Ok();
    }
    if (next.meta.deletion_timestamp && next.meta.finalizers.empty()) {
      Remove(cur);
      *obj = next;
      return Status::Ok();
    }
    if (Status s = CheckSize(next, cur.get()); !s.ok()) return s;
    Commit(EventType::kModified, cur, &next);
    *obj = next;
    return Status::Ok();
  }

  // etcd refuses a request over its limit, and the API server answers with
  // etcd's error as an internal error (docs/reference/capi-core.md §1.15).
  Status CheckSize(const T& next, const T* stored) const {
    if (c_->max_object_bytes == 0 || RequestBytes(next, stored) <= c_->max_object_bytes) {
      return Status::Ok();
    }
    return Status::Internal(kRequestTooLarge);
  }

  // The server owns identity and lifecycle fields; clients own the rest.
  static void CopyMetaAndSpec(const T& from, T* to) {
    to->meta.labels = from.meta.labels;
    to->meta.annotations = from.meta.annotations;
    to->meta.owner_references = from.meta.owner_references;
    to->meta.finalizers = from.meta.finalizers;
    if constexpr (requires { to->spec; }) {
      if (!(to->spec == from.spec)) {
        to->spec = from.spec;
        ++to->meta.generation;
      }
    }
    if constexpr (requires { to->kind; }) to->kind = from.kind;
    if constexpr (requires { to->contract_version; }) to->contract_version = from.contract_version;
    if constexpr (requires { to->data; }) {  // a Secret: type and data are its body
      to->type = from.type;
      to->data = from.data;
    }
  }

  void Commit(EventType type, Ptr old, T* next) {
    next->meta.resource_version = ++c_->resource_version;
    ++c_->writes;
    Ptr obj = std::make_shared<const T>(*next);
    objects_.Put(obj);
    Notify(type, old, obj);
  }

  // `old` is the stored object, held by value: erasing drops the store's copy.
  void Remove(Ptr old) {
    objects_.Erase(ObjectKeyRef{old->meta.ns, old->meta.name});
    ++c_->writes;
    auto gone = std::make_shared<T>(*old);
    gone->meta.resource_version = ++c_->resource_version;
    Notify(EventType::kDeleted, old, gone);
  }

  void Notify(EventType type, const Ptr& old, const Ptr& obj) {
    for (const Watcher& w : watchers_) w(type, old, obj);
  }

  ServerCounters* c_;
  // Looked up by a hash, where the ordered map compares names down its depth
  // (a 10,000-Node cluster is looked up by name for every VM of a pass).
  KeyedObjects<T> objects_;
  std::vector<Watcher> watchers_;
};

}  // namespace mpsim
