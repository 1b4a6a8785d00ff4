// What the garbage collector needs of one kind's store, without the type:
// object metadata by kind and key (the metadata client upstream's collector
// talks to), deletes with a propagation policy, and metadata patches.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/api_server.h"

namespace mpsim {

class GcStoreAccess {
 public:
  enum class Change { kAdded, kModified, kDeleted };
  // Called synchronously for each change of the store; `old` is null on add.
  using Watcher = std::function<void(Change, const ObjectMeta* old, const ObjectMeta& obj,
                                     std::string_view kind)>;
  virtual ~GcStoreAccess() = default;
  virtual void Watch(Watcher w) = 0;
  // Calls f(meta, kind) for each stored object, in key order.
  virtual void ForEach(const std::function<void(const ObjectMeta&, std::string_view)>& f) const = 0;
  // The object's metadata if it exists and is of `kind`.
  virtual std::optional<ObjectMeta> Find(std::string_view kind, ObjectKeyRef key) const = 0;
  virtual Status Delete(const ObjectKey& key, DeletionPropagation policy) = 0;
  // Changes the object's metadata if its uid is still `uid` (the collector's
  // UID precondition); NotFound otherwise.
  virtual Status PatchMeta(const ObjectKey& key, const SharedString& uid,
                           const std::function<void(ObjectMeta*)>& change) = 0;
};

// One access per kind of `server`, in a fixed order.
std::vector<std::unique_ptr<GcStoreAccess>> GcStoreAccesses(ApiServer* server);

}  // namespace mpsim
