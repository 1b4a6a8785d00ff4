#include "sim/manager.h"

#include <set>
#include <utility>

#include "sim/cache_client.h"

namespace mpsim {

class Manager::Controller : public ControllerHandle, public Client, public Builder {
 public:
  Controller(Manager* m, std::string name, WorkQueueOptions opts, MakeReconciler make,
             std::function<std::vector<Request>()> keys)
      : m_(m),
        name_(std::move(name)),
        clusters_(Client_<Cluster>()),
        machine_pools_(Client_<MachinePool>()),
        bootstrap_configs_(Client_<BootstrapConfig>()),
        infra_machine_pools_(Client_<InfraMachinePool>()),
        machines_(Client_<Machine>()),
        infra_machines_(Client_<InfraMachine>()),
        secrets_(SecretsClient()) {
    // What this controller's reconciles list, for controller.reconcileCost.
    opts.objects_listed = [this] { return listed_; };
    queue_ = std::make_unique<WorkQueue>(
        m_->loop_, m_->StreamFor(name_ + "/workqueue"), std::move(opts),
        [this](const Request& r, Result* res) { return reconciler_->Reconcile(r, res); },
        std::move(keys));
    reconciler_ = make(this);
    reconciler_->Setup(this);
  }

  // ControllerHandle
  const std::string& name() const override { return name_; }
  WorkQueue& queue() override { return *queue_; }
  Client& client() override { return *this; }
  uint64_t api_writes() const override { return writes_; }

  // Client
  ObjectClient<Cluster>& Clusters() override { return clusters_; }
  ObjectClient<MachinePool>& MachinePools() override { return machine_pools_; }
  ObjectClient<BootstrapConfig>& BootstrapConfigs() override { return bootstrap_configs_; }
  ObjectClient<InfraMachinePool>& InfraMachinePools() override { return infra_machine_pools_; }
  ObjectClient<Machine>& Machines() override { return machines_; }
  ObjectClient<InfraMachine>& InfraMachines() override { return infra_machines_; }
  ObjectClient<Secret>& Secrets() override { return *secrets_; }

  Status WorkloadNodes(const ObjectKey& cluster, ObjectClient<Node>** out) override {
    Workload* w = Reachable(cluster);
    if (w == nullptr) return Unreachable(cluster);
    auto it = node_clients_.find(cluster);
    if (it == node_clients_.end()) {
      auto c = std::make_unique<CacheClient<Node>>(w->nodes.get(), &w->server->Store<Node>(),
                                                   &writes_, &listed_);
      it = node_clients_.emplace(cluster, std::move(c)).first;
    }
    *out = it->second.get();
    return Status::Ok();
  }

  Status WatchWorkloadNodes(const ObjectKey& cluster) override {
    Workload* w = Reachable(cluster);
    if (w == nullptr) return Unreachable(cluster);
    if (!node_map_ || !node_watches_.insert(cluster).second) return Status::Ok();
    w->nodes->AddHandler([this](const WatchEvent<Node>& ev) { Enqueue(node_map_(ev)); });
    return Status::Ok();
  }

  using Client::RecordEvent;
  void RecordEvent(const ObjectKey& obj, const std::string& type, const std::string& reason,
                   const std::function<std::string()>& message) override {
    if (m_->opts_.on_event) m_->opts_.on_event(name_, obj, type, reason, message());
  }

  // Builder
  void WatchClusters(MapFunc<Cluster> f) override { Register(m_->informer<Cluster>(), f); }
  void WatchMachinePools(MapFunc<MachinePool> f) override {
    Register(m_->informer<MachinePool>(), f);
  }
  void WatchBootstrapConfigs(MapFunc<BootstrapConfig> f) override {
    Register(m_->informer<BootstrapConfig>(), f);
  }
  void WatchInfraMachinePools(MapFunc<InfraMachinePool> f) override {
    Register(m_->informer<InfraMachinePool>(), f);
  }
  void WatchMachines(MapFunc<Machine> f) override { Register(m_->informer<Machine>(), f); }
  void WatchInfraMachines(MapFunc<InfraMachine> f) override {
    Register(m_->informer<InfraMachine>(), f);
  }
  void WatchWorkloadNodes(MapFunc<Node> f) override { node_map_ = std::move(f); }
  void WatchClusterConnections(MapFunc<Cluster> f) override { connection_maps_.push_back(f); }

  void ConnectionChanged(const Cluster& cluster) {
    for (const MapFunc<Cluster>& f : connection_maps_) {
      Enqueue(f({WatchEvent<Cluster>::Type::kModified, nullptr, cluster}));
    }
  }

 private:
  template <class T>
  CacheClient<T> Client_() {
    return CacheClient<T>(&m_->informer<T>(), &m_->mgmt_->Store<T>(), &writes_, &listed_);
  }

  // From the manager's cache if it keeps Secrets, else from the server.
  std::unique_ptr<ObjectClient<Secret>> SecretsClient() {
    ObjectStore<Secret>* store = &m_->mgmt_->Store<Secret>();
    if (m_->secrets_ == nullptr) return std::make_unique<ServerClient<Secret>>(store, &writes_);
    return std::make_unique<CacheClient<Secret>>(m_->secrets_.get(), store, &writes_);
  }

  template <class T>
  void Register(Informer<T>& inf, MapFunc<T> f) {
    inf.AddHandler([this, f = std::move(f)](const WatchEvent<T>& ev) { Enqueue(f(ev)); });
  }

  void Enqueue(const std::vector<Request>& reqs) {
    for (const Request& r : reqs) queue_->Add(r);
  }

  Workload* Reachable(const ObjectKey& cluster) {
    Workload* w = m_->FindWorkload(cluster);
    return (w != nullptr && w->reachable()) ? w : nullptr;
  }
  static Status Unreachable(const ObjectKey& cluster) {
    return Status::Unavailable("error getting client: connection to the workload cluster " +
                               cluster.String() + " is down");
  }

  Manager* m_;
  std::string name_;
  uint64_t writes_ = 0;
  uint64_t listed_ = 0;  // objects the reconciles' Lists returned
  CacheClient<Cluster> clusters_;
  CacheClient<MachinePool> machine_pools_;
  CacheClient<BootstrapConfig> bootstrap_configs_;
  CacheClient<InfraMachinePool> infra_machine_pools_;
  CacheClient<Machine> machines_;
  CacheClient<InfraMachine> infra_machines_;
  std::unique_ptr<ObjectClient<Secret>> secrets_;
  std::map<ObjectKey, std::unique_ptr<CacheClient<Node>>> node_clients_;
  MapFunc<Node> node_map_;
  std::vector<MapFunc<Cluster>> connection_maps_;
  std::set<ObjectKey> node_watches_;
  std::unique_ptr<WorkQueue> queue_;
  std::unique_ptr<Reconciler> reconciler_;
};

Manager::Manager(EventLoop* loop, ApiServer* mgmt, Options opts)
    : loop_(loop), mgmt_(mgmt), opts_(std::move(opts)) {
  auto make = [this](auto& slot, const char* kind) {
    using InformerT = typename std::remove_reference_t<decltype(slot)>::element_type;
    using T = std::remove_cv_t<typename InformerT::Ptr::element_type>;
    slot = std::make_unique<InformerT>(loop_, &mgmt_->Store<T>(), opts_.informer_lag,
                                       StreamFor(std::string("informer/") + kind));
  };
  make(clusters_, "Cluster");
  make(machine_pools_, "MachinePool");
  make(bootstrap_configs_, "BootstrapConfig");
  make(infra_machine_pools_, "InfraMachinePool");
  make(machines_, "Machine");
  make(infra_machines_, "InfraMachine");
  if (opts_.cache_secrets) make(secrets_, "Secret");
}

Manager::~Manager() = default;

void Manager::AddWorkloadCluster(const ObjectKey& cluster, ApiServer* workload,
                                 std::function<bool()> answers) {
  Workload w{workload, answers, nullptr, nullptr};
  w.nodes = std::make_unique<Informer<Node>>(loop_, &workload->Store<Node>(), opts_.informer_lag,
                                             StreamFor("informer/Node/" + cluster.String()));
  for (const std::string& field : workload_node_indexes_) {
    w.nodes->AddIndex(field);
    w.nodes->AddUniqueIndex(field);
  }
  w.cache = std::make_unique<ClusterCache>(loop_, std::move(answers), [this, cluster] {
    const bool connected = FindWorkload(cluster)->cache->Connected();
    if (opts_.on_connection) opts_.on_connection(cluster, connected);
    WorkloadConnectionChanged(cluster);
  });
  ClusterCache* cache = w.cache.get();
  workloads_.emplace(cluster, std::move(w));
  // The ClusterCache controller's first reconcile: its cache sees the Cluster.
  clusters_->AddHandler([cache, cluster](const WatchEvent<Cluster>& e) {
    if (e.obj.meta.Key() == cluster) cache->Start();
  });
}

void Manager::IndexWorkloadNodeField(const std::string& field) {
  workload_node_indexes_.push_back(field);
  for (auto& [cluster, w] : workloads_) {
    w.nodes->AddIndex(field);
    w.nodes->AddUniqueIndex(field);
  }
}

void Manager::WorkloadServerChanged(const ObjectKey& cluster) {
  if (Workload* w = FindWorkload(cluster)) w->cache->ServerChanged();
}

Manager::Workload* Manager::FindWorkload(const ObjectKey& cluster) {
  auto it = workloads_.find(cluster);
  return it == workloads_.end() ? nullptr : &it->second;
}

ControllerHandle* Manager::AddControllerImpl(const std::string& name, WorkQueueOptions opts,
                                             MakeReconciler make,
                                             std::function<std::vector<Request>()> keys) {
  controllers_.push_back(
      std::make_unique<Controller>(this, name, std::move(opts), std::move(make), std::move(keys)));
  return controllers_.back().get();
}

std::vector<ControllerHandle*> Manager::controllers() const {
  std::vector<ControllerHandle*> out;
  for (const auto& c : controllers_) out.push_back(c.get());
  return out;
}

void Manager::WorkloadConnectionChanged(const ObjectKey& cluster) {
  std::shared_ptr<const Cluster> c = mgmt_->Store<Cluster>().Find(cluster);
  if (c == nullptr) return;
  for (auto& ctl : controllers_) ctl->ConnectionChanged(*c);
}

void Manager::Start() {
  for (auto& c : controllers_) c->queue().Start();
}

Rng Manager::StreamFor(const std::string& what) const {
  return mpsim::StreamFor(opts_.seed, opts_.name + "/" + what);
}

}  // namespace mpsim
