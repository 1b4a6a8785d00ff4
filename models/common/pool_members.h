// What the providers that make one InfraMachine per instance (MachinePool
// Machines: the test provider, CAPA's gate, CAPZ) share: labels, the new
// object's shape, and the watch that maps a member to its pool.
#pragma once

#include <string>

#include "api/objects.h"
#include "api/reconciler.h"

namespace mpsim {

// cluster.x-k8s.io/pool-name and cluster-name, by which core Cluster API
// lists a pool's infrastructure machines (docs/reference/capi-core.md §4).
Labels PoolMemberLabels(const MachinePool& mp);

struct PoolMemberSpec {
  std::string name;
  std::string kind;          // e.g. "AWSMachine"
  std::string finalizer;     // held until the instance is gone; "": none yet
  SharedString provider_id;  // the instance's own (pinned) buffer, shared with its Node
  bool ready = false;
};

// A member of `imp`: the pool's labels and a non-controller owner reference
// to the InfraMachinePool, which is how core and the providers find it.
InfraMachine NewPoolMember(const InfraMachinePool& imp, const MachinePool& mp,
                           const PoolMemberSpec& spec);

// Maps every InfraMachine of `member_kind` to the InfraMachinePool of
// `pool_kind` that owns it: the test provider's pool, which does its members'
// work in its own pass. CAPA's pool watches no members and CAPZ's maps them
// with a filter of its own; both leave each member to its own controller.
void WatchPoolMembers(Builder* b, const std::string& member_kind, const std::string& pool_kind);

}  // namespace mpsim
