// The test provider's InfraMachines (provider.test.machinePoolMachines): one
// per instance, in the way of CAPZ's AzureMachinePoolMachines and CAPD's
// DockerMachines, so that core Cluster API makes MachinePool Machines.
#include <memory>
#include <string_view>
#include <vector>

#include "models/common/pool_members.h"
#include "models/test/test_provider.h"
#include "util/string_hash.h"

namespace mpsim {
namespace {

// The three-way order of two names. Walking two lists of mostly the same
// names side by side, most pairs are equal: those settle inline, without the
// call to memcmp that an ordering compare makes.
int NameOrder(std::string_view a, std::string_view b) {
  return BytesEqual(a, b) ? 0 : a.compare(b);
}

}  // namespace

Status TestInfraReconciler::SyncMachines(const InfraMachinePool& imp, const MachinePool& mp,
                                         TestCloud* cloud) {
  // A List is in name order within the namespace, as the instance map is, so
  // each pass below walks the two side by side: a lookup per member (and per
  // instance) compared O(log N) names each, most of a MachinePool Machines
  // run's time. Terminate only marks an instance, so the map's iterators
  // stay valid through both passes.
  const std::vector<std::shared_ptr<const InfraMachine>> members =
      client_->InfraMachines().List({.ns = imp.meta.ns, .match_labels = PoolMemberLabels(mp)});
  const auto& instances = cloud->instances();
  std::vector<std::string_view> have;  // views of the names `members` keeps alive
  auto inst = instances.begin();
  for (const auto& im : members) {
    if (im->kind != kTestMachineKind) continue;
    const std::string_view name = im->meta.name;
    have.push_back(name);
    int order = 1;  // of the instance under the cursor against `name`
    while (inst != instances.end() && (order = NameOrder(inst->first, name)) < 0) ++inst;
    const bool exists = order == 0;
    if (Status s = SyncMachine(*im, exists ? &inst->second : nullptr, cloud); !s.ok()) return s;
  }
  // CAPZ applyAzureMachinePoolMachines step 2: one for every instance that is
  // not being deleted and has none (docs/reference/providers.md §2.6.3).
  auto seen = have.begin();
  for (const auto& [name, instance] : instances) {
    if (instance.state == TestCloud::State::kDeleting) continue;
    int order = 1;  // of the member name under the cursor against `name`
    while (seen != have.end() && (order = NameOrder(*seen, name)) < 0) ++seen;
    if (order == 0) continue;
    if (Status s = CreateInfraMachine(imp, mp, name, instance); !s.ok()) return s;
  }
  return Status::Ok();
}

// A deleted InfraMachine deletes its instance and keeps its finalizer until
// the instance is gone (CAPZ's AzureMachinePoolMachine reconcileDelete,
// docs/reference/providers.md §2.6.2). An InfraMachine whose instance vanished on its own is
// deleted through its owner Machine (CAPZ applyAzureMachinePoolMachines step
// 3); one with no Machine yet is left alone, as CAPZ and CAPD guard that race.
Status TestInfraReconciler::SyncMachine(const InfraMachine& im, const TestCloud::Instance* inst,
                                        TestCloud* cloud) {
  const bool exists = inst != nullptr;
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
  const bool ready = inst->state == TestCloud::State::kRunning;
  if (im.status.ready == ready) return Status::Ok();
  InfraMachine next = im;
  next.status.ready = ready;
  return client_->InfraMachines().Patch(im, &next);
}

// No pool pass reaches a member deleted after its pool: each one is synced
// alone, as CAPZ's AzureMachinePoolMachine controller reconciles each member
// whatever became of its pool (docs/reference/providers.md §2.6.2).
Status TestInfraReconciler::ReleaseMembers(const ObjectKey& pool) {
  auto cit = clouds_.find(pool.name);
  if (cit == clouds_.end() || !cit->second->options().machine_pool_machines) return Status::Ok();
  TestCloud* cloud = cit->second;
  Labels selector;
  selector["cluster.x-k8s.io/pool-name"] = pool.name;
  for (const auto& im : client_->InfraMachines().List({.ns = pool.ns, .match_labels = selector})) {
    if (im->kind != kTestMachineKind || !im->meta.deletion_timestamp) continue;
    auto inst = cloud->instances().find(im->meta.name);
    const bool exists = inst != cloud->instances().end();
    if (Status s = SyncMachine(*im, exists ? &inst->second : nullptr, cloud); !s.ok()) return s;
  }
  return Status::Ok();
}

// Named after the instance, with the pool's labels and a non-controller owner
// reference to the InfraMachinePool (docs/reference/capi-core.md §4).
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
