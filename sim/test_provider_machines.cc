// The test provider's InfraMachines (provider.test.machinePoolMachines): one
// per instance, in the way of CAPZ's AzureMachinePoolMachines and CAPD's
// DockerMachines, so that core Cluster API makes MachinePool Machines.
#include <algorithm>
#include <memory>
#include <string_view>
#include <vector>

#include "api/pool_members.h"
#include "sim/test_provider.h"

namespace mpsim {

Status TestInfraReconciler::SyncMachines(const InfraMachinePool& imp, const MachinePool& mp,
                                         TestCloud* cloud) {
  // Views of the listed names, which `members` keeps alive; a List is in
  // name order within the namespace, so `have` is sorted as it is filled.
  const std::vector<std::shared_ptr<const InfraMachine>> members =
      client_->InfraMachines().List({.ns = imp.meta.ns, .match_labels = PoolMemberLabels(mp)});
  std::vector<std::string_view> have;
  for (const auto& im : members) {
    if (im->kind != kTestMachineKind) continue;
    have.push_back(im->meta.name);
    if (Status s = SyncMachine(*im, cloud); !s.ok()) return s;
  }
  // CAPZ applyAzureMachinePoolMachines step 2: one for every instance that is
  // not being deleted and has none (providers.md §2.6.3).
  for (const auto& [name, inst] : cloud->instances()) {
    if (inst.state == TestCloud::State::kDeleting ||
        std::binary_search(have.begin(), have.end(), std::string_view(name))) {
      continue;
    }
    if (Status s = CreateInfraMachine(imp, mp, name, inst); !s.ok()) return s;
  }
  return Status::Ok();
}

// A deleted InfraMachine deletes its instance and keeps its finalizer until
// the instance is gone (CAPZ's AzureMachinePoolMachine reconcileDelete,
// providers.md §2.6.2). An InfraMachine whose instance vanished on its own is
// deleted through its owner Machine (CAPZ applyAzureMachinePoolMachines step
// 3); one with no Machine yet is left alone, as CAPZ and CAPD guard that race.
Status TestInfraReconciler::SyncMachine(const InfraMachine& im, TestCloud* cloud) {
  auto it = cloud->instances().find(im.meta.name);
  const bool exists = it != cloud->instances().end();
  if (im.meta.deletion_timestamp) {
    if (exists) {
      cloud->Terminate(im.meta.name);
      return Status::Ok();
    }
    InfraMachine next = im;
    std::erase(next.meta.finalizers, std::string(kTestMachineFinalizer));
    if (next == im) return Status::Ok();
    return client_->InfraMachines().Patch(im, &next);
  }
  if (!exists) {
    Machine owner;
    const ObjectKey key{im.meta.ns, im.meta.name};  // core names the Machine after it
    if (!client_->Machines().Get(key, &owner).ok() || owner.meta.deletion_timestamp) {
      return Status::Ok();
    }
    Status s = client_->Machines().Delete(key);
    return s.IsNotFound() ? Status::Ok() : s;
  }
  const bool ready = it->second.state == TestCloud::State::kRunning;
  if (im.status.ready == ready) return Status::Ok();
  InfraMachine next = im;
  next.status.ready = ready;
  return client_->InfraMachines().Patch(im, &next);
}

// Named after the instance, with the pool's labels and a non-controller owner
// reference to the InfraMachinePool (capi-core.md §4).
Status TestInfraReconciler::CreateInfraMachine(const InfraMachinePool& imp, const MachinePool& mp,
                                               const std::string& instance,
                                               const TestCloud::Instance& inst) {
  InfraMachine im = NewPoolMember(imp, mp,
                                  {.name = instance,
                                   .kind = kTestMachineKind,
                                   .finalizer = kTestMachineFinalizer,
                                   .provider_id = inst.provider_id,
                                   .ready = inst.state == TestCloud::State::kRunning});
  Status s = client_->InfraMachines().Create(&im);
  return s.code() == Status::Code::kAlreadyExists ? Status::Ok() : s;
}

}  // namespace mpsim
