// CAPA's MachinePoolMachines gate, the pool's half (docs/reference/providers.md §1.6.1,
// §1.6.2; exp/controllers/awsmachinepool_machines.go): one AWSMachine per
// instance of the group, so that core Cluster API makes a Machine for each,
// and the owner Machine of an AWSMachine whose instance left the group
// deleted. Each AWSMachine's own life is awsmachine_reconciler.h's.
#include <algorithm>
#include <string_view>
#include <vector>

#include "models/asg/awsmachine_reconciler.h"
#include "models/asg/awsmachinepool_reconciler.h"
#include "models/common/pool_members.h"
#include "util/look_ahead_cursor.h"

namespace mpsim::asg {
namespace {

// How far past the last match the cursor looks: a scale-in's victims leave
// gaps of a few instances between the AWSMachines that remain.
constexpr size_t kCursorWindow = 8;

}  // namespace

Status AwsMachinePoolReconciler::SyncAwsMachines(const InfraMachinePool& imp, const MachinePool& mp,
                                                 AutoScalingGroup* asg) {
  if (Status s = Call(imp, "ec2:DescribeInstances"); !s.ok()) return s;
  // In ID order, as missing AWSMachines are made; each found by the cursor
  // below. A map and a set of copied IDs per pass would cost more than the
  // pass's own work at a few thousand instances.
  std::vector<const Instance*> instances = asg->Describe();
  auto by_id = [](const Instance* a, const Instance* b) { return a->id < b->id; };
  // Launch order is ID order unless a fault reordered the answer.
  if (!std::is_sorted(instances.begin(), instances.end(), by_id)) {
    std::sort(instances.begin(), instances.end(), by_id);
  }
  std::vector<char> have(instances.size(), 0);
  // AWSMachines list in name order, "<pool>-<id>" with IDs of one width, so
  // each is found just past the last one; binary search when it is not.
  LookAheadCursor<const Instance*> cursor(instances);
  for (const auto& am :
       client_->InfraMachines().List({.ns = imp.meta.ns, .match_labels = PoolMemberLabels(mp)})) {
    if (am->kind != kAwsMachineKind || !am->spec.provider_id) continue;
    const std::string_view id = InstanceIdOf(*am);
    size_t at = cursor.Find(kCursorWindow, [&](const Instance* inst) { return inst->id == id; });
    if (at == LookAheadCursor<const Instance*>::kNone) {
      auto it =
          std::lower_bound(instances.begin(), instances.end(), id,
                           [](const Instance* inst, std::string_view v) { return inst->id < v; });
      if (it != instances.end() && (*it)->id == id)
        at = static_cast<size_t>(it - instances.begin());
    }
    if (at != LookAheadCursor<const Instance*>::kNone) {
      have[at] = 1;
      continue;
    }
    if (Status s = DeleteOrphan(*am); !s.ok()) return s;
  }
  for (size_t i = 0; i < instances.size(); ++i) {
    if (Leaving(instances[i]->state) || have[i]) continue;
    if (Status s = CreateAwsMachine(imp, mp, *instances[i]); !s.ok()) return s;
  }
  return Status::Ok();
}

// deleteOrphanedAWSMachines: the owner Machine goes, so that core drains and
// deletes it and with it the AWSMachine; an AWSMachine that core never made
// a Machine for is deleted itself. Core names the Machine after it.
Status AwsMachinePoolReconciler::DeleteOrphan(const InfraMachine& am) {
  std::shared_ptr<const Machine> owner = client_->Machines().GetShared(am.meta.Key());
  if (owner != nullptr && owner->meta.deletion_timestamp) return Status::Ok();
  Status s = owner != nullptr ? client_->Machines().Delete(owner->meta.Key())
                              : client_->InfraMachines().Delete(am.meta.Key());
  return s.IsNotFound() ? Status::Ok() : s;
}

// generateName "<asg>-" upstream; here the pool and instance ID, which is as
// unique and stays the same from run to run. No finalizer and no status:
// the AWSMachine controller adds both.
Status AwsMachinePoolReconciler::CreateAwsMachine(const InfraMachinePool& imp,
                                                  const MachinePool& mp, const Instance& inst) {
  InfraMachine am = NewPoolMember(imp, mp,
                                  {.name = imp.meta.name + "-" + inst.id,
                                   .kind = kAwsMachineKind,
                                   .provider_id = SharedString::Pinned(ProviderIdOf(inst))});
  Status s = client_->InfraMachines().Create(&am);
  return s.code() == Status::Code::kAlreadyExists ? Status::Ok() : s;
}

}  // namespace mpsim::asg
