#include "models/common/provider_watches.h"

namespace mpsim {

void WatchProviderPools(Builder* b, const std::string& kind, PoolStatusUpdates status) {
  const bool drop_status_only = status == PoolStatusUpdates::kDropped;
  b->WatchInfraMachinePools([kind, drop_status_only](const WatchEvent<InfraMachinePool>& ev) {
    if (ev.obj.kind != kind) return std::vector<Request>{};
    if (drop_status_only && ev.old != nullptr && ev.old->spec == ev.obj.spec &&
        ev.old->meta == ev.obj.meta) {
      return std::vector<Request>{};
    }
    return std::vector<Request>{{ev.obj.meta.Key()}};
  });
  b->WatchMachinePools([kind](const WatchEvent<MachinePool>& ev) {
    const ObjectReference& ref = ev.obj.spec.template_.spec.infrastructure_ref;
    if (ref.kind != kind) return std::vector<Request>{};
    return std::vector<Request>{{{ev.obj.meta.ns, ref.name}}};
  });
}

}  // namespace mpsim
