// A controller manager's cache of one kind: it receives the API server's watch
// events after a sampled informer lag, in resourceVersion order, and tells the
// registered handlers, as a client-go shared informer does.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "sim/distribution.h"
#include "sim/event_loop.h"
#include "sim/object_store.h"
#include "sim/random.h"

namespace mpsim {

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

  void AddHandler(Handler h) { handlers_.push_back(std::move(h)); }
  const std::map<ObjectKey, Ptr>& cache() const { return cache_; }
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
    auto it = cache_.find(obj->meta.Key());
    Ptr old = it == cache_.end() ? nullptr : it->second;
    if (type == EventType::kDeleted) {
      if (it != cache_.end()) cache_.erase(it);
    } else {
      cache_[obj->meta.Key()] = obj;
    }
    // A cache that never saw the object treats a modification as an add.
    EventType seen = (type == EventType::kModified && !old) ? EventType::kAdded : type;
    WatchEvent<T> ev{seen, seen == EventType::kModified ? old.get() : nullptr, *obj};
    for (const Handler& h : handlers_) h(ev);
  }

  EventLoop* loop_;
  DistSpec lag_;
  Rng rng_;
  Time last_delivery_ = 0;
  uint64_t delivered_ = 0;
  std::map<ObjectKey, Ptr> cache_;
  std::vector<Handler> handlers_;
};

}  // namespace mpsim
