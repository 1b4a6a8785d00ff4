// The seam between the world and an infrastructure provider (a cloud model
// plus the provider's reconcilers): the world hands it each pool of its kind
// and a manager to run its controllers in; the provider does the rest.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "scenario/scenario.pb.h"
#include "sim/event_loop.h"
#include "sim/manager.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"

namespace mpsim {

// What every provider may use of the world.
struct ProviderContext {
  EventLoop* loop = nullptr;
  WorkloadCluster* workload = nullptr;
  Recorder* recorder = nullptr;
  uint64_t seed = 1;
  const proto::ControllerSpec* controller = nullptr;  // reconcile duration, informer lag
};

class InfraProvider {
 public:
  virtual ~InfraProvider() = default;
  // Short name used in reports and random-stream names: "test", "asg", ...
  virtual std::string name() const = 0;
  // The InfraMachinePool kind this provider reconciles, e.g. "AWSMachinePool".
  virtual std::string kind() const = 0;
  // The kind of one pool's InfraMachinePool, for a provider with more than
  // one (a cloud's self-managed and managed pools); by default kind().
  virtual std::string KindOf(const proto::MachinePoolSpec& pool) const {
    (void)pool;
    return kind();
  }
  // Declares one pool of this provider, before the run starts.
  virtual void AddPool(const proto::MachinePoolSpec& pool) = 0;
  // Registers the provider's controllers with its manager; called once, after AddPool.
  virtual void AddControllers(Manager* manager) = 0;
  // The cloud terminates `count` running instances of `pool` on its own
  // (spot reclaim, hardware failure), chosen with `rng`. Returns how many it
  // killed, or -1 if this provider does not model it.
  virtual int KillInstances(const std::string& pool, int count, Rng* rng) {
    (void)pool, (void)count, (void)rng;
    return -1;
  }
  // Whether `pool` gets InfraMachines, so that core Cluster API makes
  // MachinePool Machines for it (the `deleteMachine` event needs them).
  virtual bool CreatesMachines(const std::string& pool) const {
    (void)pool;
    return false;
  }
  // Whether the provider's controllers read the workload cluster's Nodes
  // (CAPZ's AzureMachinePoolMachine controller does; CAPA's and CAPG's pool
  // controllers never do). Only then does its manager cache them: keeping a
  // second copy of every Node that nobody reads costs as much as the first.
  virtual bool ReadsWorkloadNodes() const { return false; }
  // Whether the provider's manager caches the Secrets its controllers read
  // (the bootstrap data secret): CAPA and CAPG do, as controller-runtime
  // does by default; CAPZ reads them from the API server (Manager::Options).
  virtual bool CachesSecrets() const { return false; }
  // How long draining a Node of `pool` takes when core deletes its Machine.
  virtual Duration DrainTime(const std::string& pool) const {
    (void)pool;
    return 0;
  }

 protected:
  // The resync filter of the provider's InfraMachinePool controller: only the
  // pools of its own kind (Manager::AddController).
  std::function<bool(const InfraMachinePool&)> OwnKind() const {
    return [kind = kind()](const InfraMachinePool& p) { return p.kind == kind; };
  }
};

}  // namespace mpsim
