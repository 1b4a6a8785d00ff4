// A test infrastructure provider with no cloud semantics, for tests and the
// demo until the cloud models exist: instances launch after a delay, the
// InfraMachinePool lists their providerIDs and reports ready and replicas.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/reconciler.h"
#include "models/common/infra_provider.h"
#include "sim/distribution.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"

namespace mpsim {

struct TestProviderOptions {
  DistSpec launch_delay;
  DistSpec delete_delay;
  std::string provider_id_prefix = "test://";
  bool ready_when_all_running = false;
  std::string failure_reason;
  bool reports_replicas = true;        // false: status.replicas is never set
  bool machine_pool_machines = false;  // one TestMachine InfraMachine per instance
};

inline constexpr const char* kTestMachinePoolKind = "TestMachinePool";
inline constexpr const char* kInfraFinalizer = "testmachinepool.infrastructure.cluster.x-k8s.io";
inline constexpr const char* kTestMachineKind = "TestMachine";
inline constexpr const char* kTestMachineFinalizer = "testmachine.infrastructure.cluster.x-k8s.io";

// The pretend cloud: instances of one pool and their states.
class TestCloud {
 public:
  enum class State { kLaunching, kRunning, kDeleting };
  struct Instance {
    SharedString provider_id;  // shared with every RunningIds list
    std::string version;
    State state = State::kLaunching;
    uint64_t seq = 0;  // launch number: the name's suffix
  };

  TestCloud(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
            TestProviderOptions opts, uint64_t seed);
  void Launch(const std::string& version);
  void Terminate(const std::string& name);
  // The instance disappears at once, not asked for by the provider.
  void Kill(std::string name);  // a copy: callers may pass the map key it erases
  const std::map<std::string, Instance>& instances() const { return instances_; }
  // providerIDs of the running instances, in instance-name order.
  // Shared with the InfraMachinePool that lists it: unchanged lists compare
  // and copy in O(1).
  const ProviderIDList& RunningIds();
  const TestProviderOptions& options() const { return opts_; }
  // Instances not being deleted: all, Running, Launching, and those of one
  // version. Kept as instances change, so a pass that changes nothing does
  // not scan the pool.
  int32_t live() const { return live_; }
  int32_t running() const { return running_; }
  int32_t launching() const { return launching_; }
  int32_t LiveWithVersion(const std::string& version) const;

 private:
  void SetState(const std::string& name, Instance* inst, State s);
  void Count(const Instance& inst, int32_t delta);
  // Adds the launch numbers made since the last call to name_order_.
  void ExtendNameOrder();
  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  TestProviderOptions opts_;
  Rng launch_rng_, delete_rng_;
  uint64_t next_ = 0;
  std::map<std::string, Instance> instances_;
  // The providerID of each launch number's instance while it is Running,
  // else empty: RunningIds reads this one array in launch order instead of
  // visiting every instance.
  std::vector<SharedString> running_by_seq_;
  // Every launch number so far, in name order; built only past 100,000
  // launches, and then merged with each new launch, not sorted again.
  std::vector<uint64_t> name_order_;
  ProviderIDList running_ids_;
  bool running_ids_stale_ = true;
  int32_t live_ = 0, running_ = 0, launching_ = 0;
  std::map<std::string, int32_t> live_by_version_;
};

// Reconciles TestMachinePools: one per pool, each with its TestCloud.
class TestInfraReconciler : public Reconciler {
 public:
  TestInfraReconciler(Client* client, const Clock* clock, Recorder* rec,
                      std::map<std::string, TestCloud*> clouds);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileDelete(InfraMachinePool* imp, TestCloud* cloud, Result* result);
  Status Report(const InfraMachinePool& base, const MachinePool& mp, TestCloud* cloud,
                Result* result);
  void Scale(const MachinePool& mp, TestCloud* cloud);
  std::vector<std::string> MarkedForDeletion(const MachinePool& mp, const TestCloud& cloud,
                                             int32_t excess);
  // sim/test_provider_machines.cc: InfraMachines follow the instances, and a
  // deleted InfraMachine takes its instance with it.
  Status SyncMachines(const InfraMachinePool& imp, const MachinePool& mp, TestCloud* cloud);
  // `inst` is the instance named after `im`, nullptr if there is none.
  Status SyncMachine(const InfraMachine& im, const TestCloud::Instance* inst, TestCloud* cloud);
  // The members still deleting once their pool is gone (the garbage
  // collector deletes them when their InfraMachinePool goes).
  Status ReleaseMembers(const ObjectKey& pool);
  Status CreateInfraMachine(const InfraMachinePool& imp, const MachinePool& mp,
                            const std::string& instance, const TestCloud::Instance& inst);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  std::map<std::string, TestCloud*> clouds_;  // by InfraMachinePool name
};

// The InfraProvider for `provider: {test: ...}` pools.
class TestProvider : public InfraProvider {
 public:
  explicit TestProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "test"; }
  std::string kind() const override { return kTestMachinePoolKind; }
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  int KillInstances(const std::string& pool, int count, Rng* rng) override;
  bool CreatesMachines(const std::string& pool) const override;

 private:
  ProviderContext ctx_;
  std::map<std::string, std::unique_ptr<TestCloud>> clouds_;
};

}  // namespace mpsim
