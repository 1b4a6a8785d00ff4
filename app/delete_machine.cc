#include "app/delete_machine.h"

#include <memory>
#include <vector>

namespace mpsim {
namespace {

// The pool's Machines (core Cluster API labels them with the pool's name,
// docs/reference/capi-core.md §4), in name order, skipping those already being deleted.
std::vector<std::string> LiveMachines(ApiServer* mgmt, const std::string& ns,
                                      const std::string& pool) {
  std::vector<std::string> names;
  mgmt->Store<Machine>().ForEach([&](const std::shared_ptr<const Machine>& m) {
    if (m->meta.ns != ns || m->meta.deletion_timestamp) return;
    auto label = m->meta.labels.find("cluster.x-k8s.io/pool-name");
    if (label != m->meta.labels.end() && label->second == pool) names.push_back(m->meta.name);
  });
  return names;
}

}  // namespace

std::string DeletePoolMachine(ApiServer* mgmt, Recorder* rec, Time now, const std::string& ns,
                              const proto::Event::DeleteMachine& e) {
  const std::vector<std::string> live = LiveMachines(mgmt, ns, e.pool());
  std::string name;
  if (e.has_machine()) {
    for (const std::string& n : live) {
      if (n == e.machine()) name = n;
    }
  } else if (static_cast<size_t>(e.index()) < live.size()) {
    name = live[e.index()];
  }
  if (name.empty() || !mgmt->Store<Machine>().Delete({ns, name}).ok()) {
    rec->Fault(now, e.pool(), e.has_machine() ? e.machine() : e.pool(), "deleteMachine.notFound");
    return "";
  }
  return name;
}

std::string NoMachinesError(int index, const std::string& pool, const std::string& provider) {
  return "spec.events[" + std::to_string(index) + "].deleteMachine.pool: pool \"" + pool +
         "\" runs on provider `" + provider +
         "`, whose model creates no MachinePool Machines, so it has no Machine to delete; "
         "deleteMachine needs a pool such as provider: {test: {machinePoolMachines: true}} or "
         "{asg: {machinePoolMachines: true}}";
}

}  // namespace mpsim
