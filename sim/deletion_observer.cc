#include "sim/deletion_observer.h"

#include <type_traits>
#include <utility>

namespace mpsim {

DeletionObserver::DeletionObserver(ApiServer* mgmt, Recorder* rec, std::set<std::string> pools)
    : mgmt_(mgmt), rec_(rec), pools_(std::move(pools)) {
  using ClusterEvent = ObjectStore<Cluster>::EventType;
  mgmt_->Store<Cluster>().Watch([this](ClusterEvent t, const std::shared_ptr<const Cluster>& old,
                                       const std::shared_ptr<const Cluster>& c) {
    if (t == ClusterEvent::kDeleted) return;
    const std::string before = old ? old->status.phase : "";
    if (c->status.phase == before) return;
    rec_->Change(mgmt_->clock()->Now(), "Cluster", c->meta.name, "phase", before, c->status.phase);
  });
  WatchDeletions<Cluster>("Cluster");
  WatchDeletions<BootstrapConfig>("KubeadmConfig");
  WatchDeletions<InfraMachinePool>("InfraMachinePool");
  WatchDeletions<Secret>("Secret");
}

template <class T>
void DeletionObserver::WatchDeletions(const char* kind) {
  using Event = typename ObjectStore<T>::EventType;
  mgmt_->Store<T>().Watch([this, kind](Event t, const std::shared_ptr<const T>& old,
                                       const std::shared_ptr<const T>& obj) {
    const std::string& name = obj->meta.name;
    const Time now = mgmt_->clock()->Now();
    const std::string pool = std::is_same_v<T, Cluster> ? "" : PoolOf(name);
    if (t == Event::kDeleted) {
      rec_->Change(now, kind, name, "deleted", "false", "true", pool);
    } else if (obj->meta.deletion_timestamp && !(old && old->meta.deletion_timestamp)) {
      rec_->Change(now, kind, name, "deleting", "false", "true", pool);
    }
  });
}

std::string DeletionObserver::PoolOf(const std::string& name) const {
  return pools_.count(name) ? name : "";
}

}  // namespace mpsim
