// A controller manager: one informer cache per kind shared by its controllers,
// a Client per controller that reads the cache and writes the API server, and
// a work queue per controller, as controller-runtime's manager provides.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/reconciler.h"
#include "sim/api_server.h"
#include "sim/cluster_cache.h"
#include "sim/event_loop.h"
#include "sim/informer.h"
#include "sim/work_queue.h"

namespace mpsim {

class Manager;

// One controller: its reconciler, its queue and the Client/Builder it sees.
class ControllerHandle {
 public:
  virtual ~ControllerHandle() = default;
  virtual const std::string& name() const = 0;
  virtual WorkQueue& queue() = 0;
  virtual Client& client() = 0;
  // Writes this controller made to the API servers.
  virtual uint64_t api_writes() const = 0;
};

class Manager {
 public:
  struct Options {
    std::string name;  // e.g. "capi", used to name random streams
    DistSpec informer_lag;
    uint64_t seed = 1;
    // Whether the manager's client caches Secrets. controller-runtime caches
    // every kind a client reads unless Client.Cache.DisableFor names it; some
    // managers name Secrets there (core Cluster API's among them), and their
    // reads go to the API server (docs/reference/providers.md §0.1).
    bool cache_secrets = false;
    // Kubernetes Events recorded by the controllers (controller, object, type, reason, message).
    std::function<void(const std::string&, const ObjectKey&, const std::string&, const std::string&,
                       const std::string&)>
        on_event;
    // The manager's ClusterCache connected to (true) or disconnected from a
    // workload cluster.
    std::function<void(const ObjectKey&, bool)> on_connection;
  };
  using MakeReconciler = std::function<std::unique_ptr<Reconciler>(Client* client)>;

  Manager(EventLoop* loop, ApiServer* mgmt, Options opts);
  ~Manager();
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  // A workload cluster this manager's ClusterCache connects to once
  // `answers()` is true (sim/cluster_cache.h); its first attempt comes with
  // the Cluster's first event in this manager's cache. The controllers'
  // workload clients fail with Unavailable while it is not connected or the
  // server does not answer.
  void AddWorkloadCluster(const ObjectKey& cluster, ApiServer* workload,
                          std::function<bool()> answers);
  // Whether `cluster`'s API server answers may have changed (a partition
  // began or ended): a connected ClusterCache resumes its probes.
  void WorkloadServerChanged(const ObjectKey& cluster);

  // Adds a controller whose primary kind is T (resync re-adds every T it is
  // `for`). Every InfraMachinePool shares one store here while each provider
  // kind is a resource of its own in Kubernetes, so a provider's controller
  // passes `is_for` to resync only its own kind.
  template <class T>
  ControllerHandle* AddController(const std::string& name, WorkQueueOptions opts,
                                  MakeReconciler make,
                                  std::function<bool(const T&)> is_for = nullptr);

  // Has this manager's cache of T keep the `field` index (api/indexes.h),
  // as controller-runtime's mgr.GetFieldIndexer().IndexField: a manager
  // whose controllers never list by a field does not pay for its index.
  template <class T>
  void IndexField(const std::string& field) {
    informer<T>().AddIndex(field);
  }

  // Has the Node cache of each workload cluster (added before or after) keep
  // the `field` index, as clustercache.Options.Cache.Indexes does.
  void IndexWorkloadNodeField(const std::string& field);

  // The ClusterCache connected to or disconnected from `cluster`: controllers
  // that watch connections get their generic event now.
  void WorkloadConnectionChanged(const ObjectKey& cluster);

  // Starts every controller's resync timer.
  void Start();
  std::vector<ControllerHandle*> controllers() const;

  EventLoop* loop() const { return loop_; }
  ApiServer* mgmt() const { return mgmt_; }
  template <class T>
  Informer<T>& informer();

  struct Workload {
    ApiServer* server;
    std::function<bool()> answers;
    std::unique_ptr<Informer<Node>> nodes;
    std::unique_ptr<ClusterCache> cache;
    // Reads and watches need the connection and a server that answers: the
    // stale cache a connection keeps until its probes fail is not modelled.
    bool reachable() const { return cache->Connected() && answers(); }
  };
  Workload* FindWorkload(const ObjectKey& cluster);

 private:
  class Controller;
  ControllerHandle* AddControllerImpl(const std::string& name, WorkQueueOptions opts,
                                      MakeReconciler make,
                                      std::function<std::vector<Request>()> keys);
  Rng StreamFor(const std::string& what) const;

  EventLoop* loop_;
  ApiServer* mgmt_;
  Options opts_;
  std::unique_ptr<Informer<Cluster>> clusters_;
  std::unique_ptr<Informer<MachinePool>> machine_pools_;
  std::unique_ptr<Informer<BootstrapConfig>> bootstrap_configs_;
  std::unique_ptr<Informer<InfraMachinePool>> infra_machine_pools_;
  std::unique_ptr<Informer<Machine>> machines_;
  std::unique_ptr<Informer<InfraMachine>> infra_machines_;
  std::unique_ptr<Informer<Secret>> secrets_;  // null unless cache_secrets
  std::map<ObjectKey, Workload> workloads_;
  std::vector<std::string> workload_node_indexes_;
  std::vector<std::unique_ptr<Controller>> controllers_;
};

template <class T>
ControllerHandle* Manager::AddController(const std::string& name, WorkQueueOptions opts,
                                         MakeReconciler make,
                                         std::function<bool(const T&)> is_for) {
  Informer<T>* inf = &informer<T>();
  return AddControllerImpl(name, std::move(opts), std::move(make), [inf, is_for] {
    std::vector<Request> keys;
    keys.reserve(inf->size());
    inf->ForEach([&](const std::shared_ptr<const T>& obj) {
      if (!is_for || is_for(*obj)) keys.push_back({obj->meta.Key()});
    });
    return keys;
  });
}

template <class T>
Informer<T>& Manager::informer() {
  if constexpr (std::is_same_v<T, Cluster>)
    return *clusters_;
  else if constexpr (std::is_same_v<T, MachinePool>)
    return *machine_pools_;
  else if constexpr (std::is_same_v<T, BootstrapConfig>)
    return *bootstrap_configs_;
  else if constexpr (std::is_same_v<T, InfraMachinePool>)
    return *infra_machine_pools_;
  else if constexpr (std::is_same_v<T, Machine>)
    return *machines_;
  else if constexpr (std::is_same_v<T, InfraMachine>)
    return *infra_machines_;
  else {
    static_assert(std::is_same_v<T, Secret>, "workload kinds live in Workload");
    return *secrets_;
  }
}

}  // namespace mpsim
