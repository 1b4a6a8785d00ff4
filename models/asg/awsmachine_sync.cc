// CAPA's MachinePoolMachines gate (providers.md §1.6.2): one AWSMachine per
// instance of the group, so that core Cluster API makes a Machine for each.
// Deleting such a Machine deletes its AWSMachine, which terminates the
// instance with plain ec2:TerminateInstances (controllers/awsmachine_controller.go).
#include <algorithm>
#include <string_view>
#include <vector>

#include "api/pool_members.h"
#include "models/asg/awsmachinepool_reconciler.h"

namespace mpsim::asg {
namespace {

// The instance ID at the end of "aws:///<az>/<id>".
std::string_view InstanceIdOf(const InfraMachine& am) {
  if (!am.spec.provider_id) return {};
  const std::string_view id = *am.spec.provider_id;
  return id.substr(id.rfind('/') + 1);
}

}  // namespace

Status AwsMachinePoolReconciler::SyncAwsMachines(const InfraMachinePool& imp, const MachinePool& mp,
                                                 AutoScalingGroup* asg) {
  if (Status s = Call(imp, "ec2:DescribeInstances"); !s.ok()) return s;
  // In ID order, as missing AWSMachines are made; found by binary search. A
  // pass runs for every AWSMachine event, so a map and a set of copied IDs
  // per pass cost more than the pass's own work at a few thousand instances.
  std::vector<const Instance*> instances = asg->Describe();
  auto by_id = [](const Instance* a, const Instance* b) { return a->id < b->id; };
  // Launch order is ID order unless a fault reordered the answer.
  if (!std::is_sorted(instances.begin(), instances.end(), by_id)) {
    std::sort(instances.begin(), instances.end(), by_id);
  }
  std::vector<char> have(instances.size(), 0);
  for (const auto& am :
       client_->InfraMachines().List({.ns = imp.meta.ns, .match_labels = PoolMemberLabels(mp)})) {
    if (am->kind != kAwsMachineKind) continue;
    const std::string_view id = InstanceIdOf(*am);
    auto it =
        std::lower_bound(instances.begin(), instances.end(), id,
                         [](const Instance* inst, std::string_view v) { return inst->id < v; });
    const Instance* inst = nullptr;
    if (it != instances.end() && (*it)->id == id) {
      inst = *it;
      have[static_cast<size_t>(it - instances.begin())] = 1;
    }
    if (Status s = SyncAwsMachine(imp, *am, inst, asg); !s.ok()) {
      return s;
    }
  }
  for (size_t i = 0; i < instances.size(); ++i) {
    if (Leaving(instances[i]->state) || have[i]) continue;
    if (Status s = CreateAwsMachine(imp, mp, *instances[i]); !s.ok()) return s;
  }
  return Status::Ok();
}

// A deleted AWSMachine terminates its instance and keeps its finalizer until
// the instance is gone; an orphan (its instance left the group) is deleted;
// a live one is ready while its instance is InService, and an instance that
// is shutting down makes it not ready (reason InstanceTerminated) rather
// than failed (§1.6.2).
Status AwsMachinePoolReconciler::SyncAwsMachine(const InfraMachinePool& imp, const InfraMachine& am,
                                                const Instance* inst, AutoScalingGroup* asg) {
  if (am.meta.deletion_timestamp) {
    if (inst != nullptr) {
      if (!Leaving(inst->state)) {
        if (Status s = Call(imp, "ec2:TerminateInstances"); !s.ok()) return s;
        asg->TerminateInstance(inst->id);
      }
      return Status::Ok();
    }
    InfraMachine next = am;
    std::erase(next.meta.finalizers, std::string(kAwsMachineFinalizer));
    if (next == am) return Status::Ok();
    return client_->InfraMachines().Patch(am, &next);
  }
  if (inst == nullptr) {
    Status s = client_->InfraMachines().Delete(am.meta.Key());
    return s.IsNotFound() ? Status::Ok() : s;
  }
  const bool ready = inst->state == State::kInService;
  if (am.status.ready == ready) return Status::Ok();
  InfraMachine next = am;
  next.status.ready = ready;
  return client_->InfraMachines().Patch(am, &next);
}

// generateName "<asg>-" upstream; here the pool and instance ID, which is as
// unique and stays the same from run to run.
Status AwsMachinePoolReconciler::CreateAwsMachine(const InfraMachinePool& imp,
                                                  const MachinePool& mp, const Instance& inst) {
  InfraMachine am = NewPoolMember(imp, mp,
                                  {.name = imp.meta.name + "-" + inst.id,
                                   .kind = kAwsMachineKind,
                                   .finalizer = kAwsMachineFinalizer,
                                   .provider_id = ProviderIdOf(inst),
                                   .ready = inst.state == State::kInService});
  Status s = client_->InfraMachines().Create(&am);
  return s.code() == Status::Code::kAlreadyExists ? Status::Ok() : s;
}

}  // namespace mpsim::asg
