// What a controller sees of the cluster: a typed client per kind that reads
// from the controller's informer cache and writes to the API server, as
// controller-runtime's client does. The simulator is one implementation.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/indexes.h"
#include "api/objects.h"
#include "api/status.h"
#include "util/flat_view_map.h"
#include "util/object_lines.h"

namespace mpsim {

template <class T>
struct ListOptions {
  std::string ns;       // empty: all namespaces
  Labels match_labels;  // every pair must match
  // client.MatchingFields on a registered field index (api/indexes.h):
  // objects whose `index_field` values include `index_value`; empty: none.
  std::string index_field;
  std::string index_value;
  // Any other selection, applied to each object; nullptr: none.
  std::function<bool(const T&)> field;
};

// What a loop over the objects in key order builds from a field of which
// each holds at most one value: each value -> the object holding it (the
// later winning a shared value), and the name of each object so kept -> that
// object. Names are unique only for cluster-scoped objects, the ones this
// serves. The name keys view the objects that by_value holds.
template <class T>
struct UniqueIndexMaps {
  FlatViewMap<std::shared_ptr<const T>> by_value;
  FlatViewMap<const T*> by_name;
};

// The answers of a batched read, in order (nullptr: no such object). A walk
// over them loads each object's lines a few objects ahead of the reader
// (util/object_lines.h), so that the reader's cache misses overlap.
template <class T>
class ObjectBatch {
 public:
  using Ptr = std::shared_ptr<const T>;
  explicit ObjectBatch(std::vector<Ptr> objects) : objects_(std::move(objects)) {}

  class iterator {
   public:
    iterator(std::vector<Ptr>* v, size_t i) : v_(v), i_(i) { Load(); }
    Ptr& operator*() const { return (*v_)[i_]; }
    iterator& operator++() {
      ++i_;
      Load();
      return *this;
    }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    static constexpr size_t kAhead = 8;
    void Load() const {
      if (v_ == nullptr) return;
      const size_t n = v_->size();
      if (i_ == 0) {
        for (size_t j = 0; j < kAhead && j < n; ++j) First(j);
      }
      if (i_ + kAhead < n) First(i_ + kAhead);
      if (i_ + kAhead / 2 < n && (*v_)[i_ + kAhead / 2] != nullptr) {
        PrefetchHotLines(*(*v_)[i_ + kAhead / 2]);
      }
    }
    void First(size_t j) const {
      if ((*v_)[j] != nullptr) PrefetchObjectLines((*v_)[j].get());
    }
    std::vector<Ptr>* v_;
    size_t i_;
  };
  iterator begin() { return iterator(&objects_, 0); }
  iterator end() { return iterator(nullptr, objects_.size()); }

 private:
  std::vector<Ptr> objects_;
};

template <class T>
class ObjectClient {
 public:
  virtual ~ObjectClient() = default;
  // Reads from the cache; NotFound if the cache has no such object.
  virtual Status Get(const ObjectKey& key, T* out) = 0;
  // Reads from the cache without copying, as controller-runtime's cache
  // reader with UnsafeDisableDeepCopy; nullptr if absent. The object must not
  // be modified. The default copies through Get.
  virtual std::shared_ptr<const T> GetShared(ObjectKeyRef key) {
    auto out = std::make_shared<T>();
    if (!Get(ObjectKey{std::string(key.ns), std::string(key.name)}, out.get()).ok()) return nullptr;
    return out;
  }
  // GetShared of each key, in order. One call lets a cache overlap the
  // lookups' memory loads; the answers are those of the single Gets.
  virtual ObjectBatch<T> GetSharedAll(const std::vector<ObjectKeyRef>& keys) {
    std::vector<std::shared_ptr<const T>> out;
    out.reserve(keys.size());
    for (const ObjectKeyRef& k : keys) out.push_back(GetShared(k));
    return ObjectBatch<T>(std::move(out));
  }
  // Reads from the cache, ordered by (namespace, name). Hold the answers of
  // List and GetSharedAll for one reconcile: a cache may keep what it drops
  // meanwhile alive for them rather than count each object.
  virtual std::vector<std::shared_ptr<const T>> List(const ListOptions<T>& opts) = 0;
  // Of the cached objects whose `field` index (api/indexes.h) holds `value`,
  // the last in key order: the one a loop over List that maps each object's
  // value to it would keep. nullptr if none holds it. Read as GetShared's.
  virtual std::shared_ptr<const T> GetSharedByIndex(const std::string& field,
                                                    std::string_view value) {
    ListOptions<T> opts;
    opts.index_field = field;
    opts.index_value = std::string(value);
    std::vector<std::shared_ptr<const T>> found = List(opts);
    return found.empty() ? nullptr : found.back();
  }
  // The maps a loop over List builds from the `field` index (of which an
  // object holds at most one value), as the cache keeps them; shared, not to
  // be held past the reconcile. nullptr: the client keeps none (build them).
  virtual std::shared_ptr<const UniqueIndexMaps<T>> UniqueIndexMap(const std::string& field) {
    (void)field;
    return nullptr;
  }
  // Creates the object; the server fills uid, resourceVersion, generation.
  virtual Status Create(T* obj) = 0;
  // Writes metadata and spec; Conflict if obj's resourceVersion is stale.
  virtual Status Update(T* obj) = 0;
  // Writes status only (the status subresource); Conflict if stale.
  virtual Status UpdateStatus(T* obj) = 0;
  // Merge patch of metadata, spec and status with no resourceVersion check,
  // as Cluster API's patch helper does. A patch that changes nothing is a no-op.
  virtual Status Patch(T* obj) = 0;
  // The patch Cluster API's patch helper sends: only the changes from `base`
  // (the object as the writer read it) to *obj reach the server
  // (api/merge_patch.h), so fields others wrote since are kept. On success
  // *obj is the server's new state.
  virtual Status Patch(const T& base, T* obj) = 0;
  // Sets deletionTimestamp while finalizers remain, else removes the object.
  virtual Status Delete(const ObjectKey& key) = 0;
};

class Client {
 public:
  virtual ~Client() = default;
  virtual ObjectClient<Cluster>& Clusters() = 0;
  virtual ObjectClient<MachinePool>& MachinePools() = 0;
  virtual ObjectClient<BootstrapConfig>& BootstrapConfigs() = 0;
  virtual ObjectClient<InfraMachinePool>& InfraMachinePools() = 0;
  virtual ObjectClient<Machine>& Machines() = 0;
  virtual ObjectClient<InfraMachine>& InfraMachines() = 0;
  // From the manager's cache when it caches Secrets, else straight from the
  // API server (controller-runtime's Client.Cache.DisableFor).
  virtual ObjectClient<Secret>& Secrets() = 0;
  // ClusterCache.GetClient: the workload cluster's (cached) Node client, or
  // Unavailable while the cluster cannot be reached.
  virtual Status WorkloadNodes(const ObjectKey& cluster, ObjectClient<Node>** out) = 0;
  // ClusterCache.Watch: from now on, Node events of that workload cluster go
  // to the node watch the controller declared. Idempotent.
  virtual Status WatchWorkloadNodes(const ObjectKey& cluster) = 0;
  // A Kubernetes Event (type Normal or Warning) about an object. The message
  // is built only if events are kept: some list every nodeRef, O(N) each.
  virtual void RecordEvent(const ObjectKey& obj, const std::string& type, const std::string& reason,
                           const std::function<std::string()>& message) = 0;
  void RecordEvent(const ObjectKey& obj, const std::string& type, const std::string& reason,
                   const std::string& message) {
    RecordEvent(obj, type, reason, std::function<std::string()>([&message] { return message; }));
  }
};

}  // namespace mpsim
