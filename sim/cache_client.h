// The ObjectClient a simulated controller gets: reads from its manager's
// informer cache (possibly stale), writes to the API server, counts writes;
// and ServerClient, for a kind the manager does not cache.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include "api/client.h"
#include "sim/informer.h"
#include "sim/object_store.h"
#include "util/prefetch.h"
#include "util/string_hash.h"

namespace mpsim {

template <class T>
class CacheClient : public ObjectClient<T> {
 public:
  using Ptr = std::shared_ptr<const T>;

  // `listed`, if given, counts the objects this client's Lists return (and
  // those a kept index map stands for: every cached object, as the List it
  // replaces would return).
  CacheClient(const Informer<T>* informer, ObjectStore<T>* store, uint64_t* writes,
              uint64_t* listed = nullptr)
      : informer_(informer), store_(store), writes_(writes), listed_(listed) {}

  Status Get(const ObjectKey& key, T* out) override {
    const Ptr* found = informer_->Find(key);
    if (found == nullptr) {
      return Status::NotFound(std::string(T::kKind) + " " + key.String() + " not found");
    }
    *out = **found;
    return Status::Ok();
  }

  // Leased, as List's answers: a reconcile's Get per nodeRef then counts
  // nothing on the 10,000 Nodes it reads.
  Ptr GetShared(ObjectKeyRef key) override {
    const Ptr* found = informer_->Find(key);
    return found == nullptr ? nullptr : informer_->Lease(found->get());
  }

  ObjectBatch<T> GetSharedAll(const std::vector<ObjectKeyRef>& keys) override {
    std::vector<const T*> found;
    informer_->FindAll(keys, &found);
    std::vector<Ptr> out;
    out.reserve(found.size());
    for (const T* obj : found) out.push_back(informer_->Lease(obj));
    return ObjectBatch<T>(std::move(out));
  }

  // Through the index the informer keeps, if its manager added it; else a
  // scan of the cache gives the same answer.
  Ptr GetSharedByIndex(const std::string& field, std::string_view value) override {
    const IndexKeys* keys = informer_->Lookup(field, value);
    if (keys == nullptr) return ScanByIndex(field, value);
    if (keys->empty()) return nullptr;
    return GetShared({keys->back().ns, keys->back().name});
  }
  std::shared_ptr<const UniqueIndexMaps<T>> UniqueIndexMap(const std::string& field) override {
    std::shared_ptr<const UniqueIndexMaps<T>> maps = informer_->UniqueIndex(field);
    if (maps != nullptr) CountListed(informer_->size());
    return maps;
  }

  std::vector<Ptr> List(const ListOptions<T>& opts) override {
    std::vector<Ptr> out = ListFromCache(opts);
    CountListed(out.size());
    return out;
  }

  Status Create(T* obj) override {
    return Count(Fault("create", obj->meta.Key(), [&] { return store_->Create(obj); }));
  }
  Status Update(T* obj) override {
    return Count(Fault("update", obj->meta.Key(), [&] { return store_->Update(obj); }));
  }
  Status UpdateStatus(T* obj) override {
    return Count(Fault("updateStatus", obj->meta.Key(), [&] { return store_->UpdateStatus(obj); }));
  }
  Status Patch(T* obj) override {
    return Count(Fault("patch", obj->meta.Key(), [&] { return store_->Patch(obj); }));
  }
  Status Patch(const T& base, T* obj) override {
    return Count(Fault("patch", obj->meta.Key(), [&] { return store_->Patch(base, obj); }));
  }
  Status Delete(const ObjectKey& key) override {
    return Count(Fault("delete", key, [&] { return store_->Delete(key); }));
  }

 private:
  void CountListed(size_t n) {
    if (listed_ != nullptr) *listed_ += n;
  }
  std::vector<Ptr> ListFromCache(const ListOptions<T>& opts) {
    if (!opts.index_field.empty()) return ListIndexed(opts);
    const std::vector<const Ptr*>& all = informer_->InOrder();
    auto it = all.begin();
    if (!opts.ns.empty()) {
      it = std::lower_bound(
          all.begin(), all.end(), opts.ns,
          [](const Ptr* cell, const std::string& ns) { return (*cell)->meta.ns < ns; });
    }
    std::vector<Ptr> out;
    for (; it != all.end(); ++it) {
      if (it + kPrefetchAhead < all.end()) PrefetchRead(it[kPrefetchAhead]);
      const T& obj = ***it;  // cell, pointer, object
      if (!opts.ns.empty() && !BytesEqual(obj.meta.ns, opts.ns)) break;
      if (Matches(obj, opts)) out.push_back(informer_->Lease(&obj));
    }
    return out;
  }

  // A List through a field index visits only the objects the index names,
  // as controller-runtime's cache does for MatchingFields.
  std::vector<Ptr> ListIndexed(const ListOptions<T>& opts) {
    std::vector<Ptr> out;
    const IndexKeys* keys = informer_->Lookup(opts.index_field, opts.index_value);
    if (keys == nullptr) return out;  // upstream: "index with name field:... does not exist"
    for (const ObjectKey& key : *keys) {
      if (!opts.ns.empty() && key.ns != opts.ns) continue;
      const Ptr& obj = *informer_->Find(key);
      if (Matches(*obj, opts)) out.push_back(obj);
    }
    return out;
  }

  // The last cached object in key order whose `field` values hold `value`.
  Ptr ScanByIndex(const std::string& field, std::string_view value) {
    const std::vector<const Ptr*>& all = informer_->InOrder();
    std::vector<const SharedString*> values;
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
      values.clear();
      FieldIndexes<T>::Values(***it, field, &values);
      for (const SharedString* v : values) {
        if (BytesEqual(*v, value)) return informer_->Lease((**it).get());
      }
    }
    return nullptr;
  }

  static bool Matches(const T& obj, const ListOptions<T>& opts) {
    for (const auto& [k, v] : opts.match_labels) {
      auto l = obj.meta.labels.FindShared(k);
      if (l == obj.meta.labels.end() || l->second != v) return false;
    }
    return !opts.field || opts.field(obj);
  }
  // The injected fault for this call, if any, else the call itself.
  template <class F>
  Status Fault(const char* verb, const ObjectKey& key, F call) {
    const auto& hook = store_->counters()->client_fault;
    if (hook) {
      Status s = hook(T::kKind, verb, key);
      if (!s.ok()) return s;
    }
    return call();
  }
  Status Count(Status s) {
    ++*writes_;  // every call reaches the API server, successful or not
    return s;
  }

  const Informer<T>* informer_;
  ObjectStore<T>* store_;
  uint64_t* writes_;
  uint64_t* listed_;
};

// The ObjectClient of a kind the manager does not cache: reads go to the API
// server, as controller-runtime's client does for a kind in
// Client.Cache.DisableFor; writes as CacheClient's. A class of its own so
// that CacheClient's hot reads stay as they are.
template <class T>
class ServerClient : public CacheClient<T> {
 public:
  using Ptr = std::shared_ptr<const T>;

  ServerClient(ObjectStore<T>* store, uint64_t* writes)
      : CacheClient<T>(nullptr, store, writes), store_(store) {}

  Status Get(const ObjectKey& key, T* out) override { return store_->Get(key, out); }
  Ptr GetShared(ObjectKeyRef key) override { return store_->Find(key); }
  ObjectBatch<T> GetSharedAll(const std::vector<ObjectKeyRef>& keys) override {
    return ObjectClient<T>::GetSharedAll(keys);
  }
  // No field index serves the server's reads.
  Ptr GetSharedByIndex(const std::string& field, std::string_view value) override {
    return ObjectClient<T>::GetSharedByIndex(field, value);
  }
  std::shared_ptr<const UniqueIndexMaps<T>> UniqueIndexMap(const std::string& field) override {
    return ObjectClient<T>::UniqueIndexMap(field);
  }
  // No field index serves the server's List.
  std::vector<Ptr> List(const ListOptions<T>& opts) override {
    std::vector<Ptr> out;
    if (!opts.index_field.empty()) return out;
    store_->ForEach([&](const Ptr& obj) {
      if (!opts.ns.empty() && obj->meta.ns != opts.ns) return;
      for (const auto& [k, v] : opts.match_labels) {
        auto l = obj->meta.labels.find(k);
        if (l == obj->meta.labels.end() || l->second != v) return;
      }
      if (!opts.field || opts.field(*obj)) out.push_back(obj);
    });
    return out;
  }

 private:
  ObjectStore<T>* store_;
};

}  // namespace mpsim
