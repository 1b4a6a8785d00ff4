#include "sim/gc_store_access.h"

namespace mpsim {
namespace {

// An object's kind as its ownerReferences name it: the provider's kind for
// the infrastructure objects, else the type's.
template <class T>
std::string_view KindOf(const T& obj) {
  if constexpr (requires { obj.kind; }) {
    if (!obj.kind.empty()) return obj.kind;
  }
  return T::kKind;
}

template <class T>
class StoreAccess : public GcStoreAccess {
 public:
  explicit StoreAccess(ObjectStore<T>* store) : store_(store) {}

  void Watch(Watcher w) override {
    store_->Watch([w = std::move(w)](typename ObjectStore<T>::EventType t,
                                     const std::shared_ptr<const T>& old,
                                     const std::shared_ptr<const T>& obj) {
      using E = typename ObjectStore<T>::EventType;
      const Change c = t == E::kAdded     ? Change::kAdded
                       : t == E::kDeleted ? Change::kDeleted
                                          : Change::kModified;
      w(c, old ? &old->meta : nullptr, obj->meta, KindOf(*obj));
    });
  }

  void ForEach(const std::function<void(const ObjectMeta&, std::string_view)>& f) const override {
    store_->ForEach([&](const std::shared_ptr<const T>& o) { f(o->meta, KindOf(*o)); });
  }

  std::optional<ObjectMeta> Find(std::string_view kind, ObjectKeyRef key) const override {
    std::shared_ptr<const T> o = store_->Find(key);
    if (o == nullptr || KindOf(*o) != kind) return std::nullopt;
    return o->meta;
  }

  Status Delete(const ObjectKey& key, DeletionPropagation policy) override {
    return store_->Delete(key, policy);
  }

  Status PatchMeta(const ObjectKey& key, const SharedString& uid,
                   const std::function<void(ObjectMeta*)>& change) override {
    T obj;
    if (Status s = store_->Get(key, &obj); !s.ok()) return s;
    if (obj.meta.uid != uid) return Status::NotFound(key.String() + " has another uid");
    change(&obj.meta);
    return store_->Patch(&obj);
  }

 private:
  ObjectStore<T>* store_;
};

template <class T>
void Add(ApiServer* server, std::vector<std::unique_ptr<GcStoreAccess>>* out) {
  out->push_back(std::make_unique<StoreAccess<T>>(&server->Store<T>()));
}

}  // namespace

std::vector<std::unique_ptr<GcStoreAccess>> GcStoreAccesses(ApiServer* server) {
  std::vector<std::unique_ptr<GcStoreAccess>> out;
  Add<Cluster>(server, &out);
  Add<MachinePool>(server, &out);
  Add<BootstrapConfig>(server, &out);
  Add<InfraMachinePool>(server, &out);
  Add<Machine>(server, &out);
  Add<InfraMachine>(server, &out);
  Add<Secret>(server, &out);
  Add<Node>(server, &out);
  return out;
}

}  // namespace mpsim
