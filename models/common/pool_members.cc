#include "models/common/pool_members.h"

#include <vector>

namespace mpsim {

Labels PoolMemberLabels(const MachinePool& mp) {
  // MustFormatValue(name) is the name itself for a DNS-1123 label, which the
  // scenario validation requires of pool names.
  // Keys interned, as core's selector keys are, and values pinned (one buffer
  // per text in a run): the pool's List then matches each member's labels by
  // address, reading no text.
  static const SharedString kPoolName = SharedString::Interned("cluster.x-k8s.io/pool-name");
  static const SharedString kClusterName = SharedString::Interned("cluster.x-k8s.io/cluster-name");
  return {{kPoolName, SharedString::Pinned(mp.meta.name)},
          {kClusterName, SharedString::Pinned(mp.spec.cluster_name)}};
}

InfraMachine NewPoolMember(const InfraMachinePool& imp, const MachinePool& mp,
                           const PoolMemberSpec& spec) {
  InfraMachine im;
  im.meta.name = spec.name;
  im.meta.ns = imp.meta.ns;
  im.meta.labels = PoolMemberLabels(mp);
  if (!spec.finalizer.empty()) im.meta.finalizers = {spec.finalizer};
  im.meta.owner_references = {{.api_version = "infrastructure.cluster.x-k8s.io/v1beta2",
                               .kind = imp.kind,
                               .name = imp.meta.name,
                               .uid = imp.meta.uid}};
  im.kind = spec.kind;
  im.spec.provider_id = spec.provider_id;
  im.status.ready = spec.ready;
  return im;
}

void WatchPoolMembers(Builder* b, const std::string& member_kind, const std::string& pool_kind) {
  b->WatchInfraMachines([member_kind, pool_kind](const WatchEvent<InfraMachine>& ev) {
    std::vector<Request> out;
    if (ev.obj.kind != member_kind) return out;
    for (const OwnerReference& r : ev.obj.meta.owner_references) {
      if (r.kind == pool_kind) out.push_back({{ev.obj.meta.ns, r.name}});
    }
    return out;
  });
}

}  // namespace mpsim
