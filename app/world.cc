#include "app/world.h"

#include <map>
#include <memory>
#include <set>
#include <vector>

#include "api/indexes.h"
#include "app/cluster_deletion.h"
#include "app/delete_machine.h"
#include "app/report/summary.h"
#include "app/run_limits.h"
#include "app/scenario_event_applier.h"
#include "app/workload_autoscaling.h"
#include "controller/capi_names.h"
#include "controller/machine_reconciler.h"
#include "controller/machinepool_reconciler.h"
#include "models/registry.h"
#include "sim/api_server.h"
#include "sim/bootstrap_provider.h"
#include "sim/distribution_proto.h"
#include "sim/duration.h"
#include "sim/event_loop.h"
#include "sim/manager.h"
#include "sim/pool_observer.h"
#include "sim/workload_cluster.h"
#include "sim/workload_partition.h"

namespace mpsim {
namespace {

constexpr const char* kNamespace = "default";
constexpr const char* kClusterName = "workload";

WorkloadOptions ToWorkloadOptions(const proto::WorkloadClusterSpec& w) {
  WorkloadOptions o;
  o.node_registration = ToDistSpec(w.node_registration());
  o.node_ready = ToDistSpec(w.node_ready());
  o.provider_id_by_kubelet = w.provider_id().set_by() == "kubelet";
  o.ccm_delay = ToDistSpec(w.provider_id().ccm_delay());
  const auto& f = w.provider_id().faults();
  o.p_case_mismatch = f.case_mismatch();
  o.p_missing = f.missing();
  o.p_wrong_format = f.wrong_format();
  o.p_late = f.late().probability();
  o.late_delay = ToDistSpec(f.late().delay());
  o.node_monitor_grace_period = w.node_monitor_grace_period();
  return o;
}

MachinePoolOptions ToControllerOptions(const proto::ControllerSpec& c) {
  MachinePoolOptions o;
  if (c.provider_id_match() == "legacy-last-segment") {
    o.provider_id_match = ProviderIDMatch::kLegacyLastSegment;
  }
  for (const std::string& fix : c.fixes()) {
    if (fix == "pr14234-nil-guards") o.fix_nil_guards = true;
    if (fix == "pr14030-initialization-provisioned") o.fix_initialization_provisioned = true;
  }
  return o;
}

class World {
 public:
  World(const proto::Scenario& sc, uint64_t seed)
      : sc_(sc), seed_(seed), mgmt_(&loop_), workload_api_(&loop_) {}

  bool Build(std::string* error);
  // False with *error when a budget of spec.limits stopped the run.
  // Runs to the horizon and fills *out.
  bool Run(RunOutput* out, std::string* error);

 private:
  bool BuildProviders(std::string* error);
  bool CheckDeleteMachineEvents(std::string* error) const;
  void AddMachineController(WorkQueueOptions qo);
  void ServerChanged();
  Manager::Options ManagerOptions(const std::string& name);
  bool WorkloadAnswers() const;
  void HookReconciles(Manager* m);
  void RecordRequeue(const std::string& controller, const ReconcileRecord& r);
  std::string PoolOf(const std::string& object);
  void CreateCluster();
  void CreatePool(const proto::MachinePoolSpec& p);
  ObjectKey ClusterKey() const { return {kNamespace, kClusterName}; }

  const proto::Scenario& sc_;
  uint64_t seed_;
  EventLoop loop_;
  Recorder rec_;
  ApiServer mgmt_;
  ApiServer workload_api_;
  std::unique_ptr<WorkloadCluster> workload_;
  std::unique_ptr<BootstrapProvider> bootstrap_;
  std::unique_ptr<PoolObserver> observer_;
  std::unique_ptr<WorkloadPartition> partition_;
  std::unique_ptr<Manager> capi_;
  std::map<std::string, std::unique_ptr<InfraProvider>> providers_;  // by provider name
  std::map<std::string, std::unique_ptr<Manager>> provider_managers_;
  std::vector<ControllerHandle*> controllers_;
  ControllerHandle* mp_controller_ = nullptr;
  std::set<std::string> pools_;                           // names of the scenario's pools
  std::map<std::string, InfraProvider*> pool_providers_;  // pool name -> its provider
  std::unique_ptr<ScenarioEventApplier> events_;
  std::unique_ptr<ClusterDeletion> cluster_deletion_;  // only when an event deletes the Cluster
  std::unique_ptr<PodScheduler> pods_;                 // only with pods or an autoscaler
  std::unique_ptr<autoscaler::ClusterAutoscaler> autoscaler_;  // only with `autoscaler:`
};

bool World::Build(std::string* error) {
  const auto& spec = sc_.spec();
  const auto& wl = spec.workload_cluster();
  workload_ = std::make_unique<WorkloadCluster>(&loop_, &workload_api_, &rec_,
                                                ToWorkloadOptions(wl), seed_);
  bootstrap_ = std::make_unique<BootstrapProvider>(
      &loop_, &mgmt_, &rec_,
      BootstrapOptions{ToDistSpec(wl.bootstrap_delay()), wl.bootstrap_token_rotation(), seed_});
  partition_ =
      std::make_unique<WorkloadPartition>(&loop_, &rec_, kClusterName, [this] { ServerChanged(); });
  observer_ = std::make_unique<PoolObserver>(&mgmt_, &workload_api_, &rec_);
  mgmt_.SetMaxObjectBytes(spec.api_server().max_object_bytes());

  const auto& c = spec.controller();
  capi_ = std::make_unique<Manager>(&loop_, &mgmt_, ManagerOptions("capi"));
  // core main.go calls index.AddDefaultIndexes on Cluster API's manager
  // only; the providers' managers register none of these.
  for (const std::string& field : FieldIndexes<MachinePool>::Fields()) {
    capi_->IndexField<MachinePool>(field);
  }
  for (const std::string& field : FieldIndexes<Machine>::Fields()) {
    capi_->IndexField<Machine>(field);
  }
  // main.go: the ClusterCache indexes workload Nodes by providerID.
  capi_->IndexWorkloadNodeField(kNodeProviderIDField);
  capi_->AddWorkloadCluster(ClusterKey(), &workload_api_, [this] { return WorkloadAnswers(); });
  WorkQueueOptions qo;
  qo.workers = c.max_concurrent_reconciles();
  qo.policy = RateLimitPolicy::ClusterApi();
  qo.sync_period = c.sync_period();
  qo.reconcile_duration = ToDistSpec(c.reconcile_duration());
  if (c.reconcile_cost().has_base()) qo.reconcile_duration = ToDistSpec(c.reconcile_cost().base());
  qo.per_object_listed = c.reconcile_cost().per_object_listed();
  MachinePoolOptions mpo = ToControllerOptions(c);
  mp_controller_ =
      capi_->AddController<MachinePool>("machinepool", qo, [this, mpo](Client* client) {
        return std::make_unique<MachinePoolReconciler>(client, &loop_, mpo);
      });
  AddMachineController(qo);
  const bool deletes_cluster = DeletesCluster(spec);
  if (deletes_cluster) ClusterDeletion::AddClusterController(capi_.get(), qo);
  HookReconciles(capi_.get());
  if (!BuildProviders(error) || !CheckDeleteMachineEvents(error)) return false;
  if (deletes_cluster) {
    cluster_deletion_ = std::make_unique<ClusterDeletion>(
        &loop_, &mgmt_, &rec_, ToDistSpec(c.informer_lag()), seed_, pools_);
  }
  // Before the pools: the autoscaler counts every replica count they have.
  if (HasPods(spec)) pods_ = MakePodScheduler(spec, &loop_, workload_.get(), &rec_);
  if (spec.has_autoscaler()) {
    autoscaler_ =
        MakeAutoscaler(spec, &loop_, &mgmt_, &workload_api_, pods_.get(), &rec_, kNamespace, seed_);
  }
  CreateCluster();
  for (const auto& p : spec.machine_pools()) CreatePool(p);
  events_ = std::make_unique<ScenarioEventApplier>(
      EventTargets{&loop_, &rec_, &mgmt_, partition_.get(), &pool_providers_, kNamespace,
                   kClusterName, seed_, pods_.get()});
  events_->Schedule(sc_.spec().events());
  capi_->Start();
  for (auto& [name, m] : provider_managers_) m->Start();
  return true;
}

// One manager per provider, as each provider runs its own controller manager.
bool World::BuildProviders(std::string* error) {
  const auto& c = sc_.spec().controller();
  ProviderContext ctx{&loop_, workload_.get(), &rec_, seed_, &c};
  for (const auto& p : sc_.spec().machine_pools()) {
    const std::string name = ProviderName(p);
    if (!providers_.count(name)) {
      std::unique_ptr<InfraProvider> provider = MakeProvider(p, ctx);
      if (!provider) {
        *error = "machine pool " + p.name() + ": provider `" + name +
                 "` has no model in this build of mpsim yet (available: " + AvailableProviders() +
                 ")";
        return false;
      }
      providers_[name] = std::move(provider);
    }
    providers_[name]->AddPool(p);
    pools_.insert(p.name());
    pool_providers_[p.name()] = providers_[name].get();
    observer_->Track(p.name(), p.name(), name);
  }
  for (auto& [name, provider] : providers_) {
    Manager::Options options = ManagerOptions(name + "-provider");
    options.cache_secrets = provider->CachesSecrets();
    auto m = std::make_unique<Manager>(&loop_, &mgmt_, std::move(options));
    if (provider->ReadsWorkloadNodes()) {
      m->AddWorkloadCluster(ClusterKey(), &workload_api_, [this] { return WorkloadAnswers(); });
    }
    provider->AddControllers(m.get());
    HookReconciles(m.get());
    provider_managers_[name] = std::move(m);
  }
  return true;
}

// Cluster API's Machine controller runs in the same manager as the
// MachinePool controller (core/main.go), with its own workers
// (--machine-concurrency, default 10).
void World::AddMachineController(WorkQueueOptions qo) {
  qo.workers = 10;
  // The drain time is the pool's provider's: the providers exist only later,
  // so it is looked up when a Machine is deleted.
  auto drain_time = [this](const Machine& m) -> Duration {
    auto label = m.meta.labels.find(capi::kMachinePoolNameLabel);
    if (label == m.meta.labels.end()) return 0;
    auto p = pool_providers_.find(label->second);
    return p == pool_providers_.end() ? 0 : p->second->DrainTime(p->first);
  };
  capi_->AddController<Machine>("machine", qo, [this, drain_time](Client* client) {
    return std::make_unique<MachineReconciler>(client, &loop_, drain_time);
  });
}

// A pool can lose a Machine only if its provider makes them; which do is
// known once the providers exist, so this is checked here, not in validation.
bool World::CheckDeleteMachineEvents(std::string* error) const {
  for (int i = 0; i < sc_.spec().events_size(); ++i) {
    const proto::Event& e = sc_.spec().events(i);
    if (!e.has_delete_machine()) continue;
    const std::string& pool = e.delete_machine().pool();
    const InfraProvider* p = pool_providers_.at(pool);
    if (p->CreatesMachines(pool)) continue;
    *error = NoMachinesError(i, pool, p->name());
    return false;
  }
  return true;
}

// A partition began or ended: every manager's ClusterCache probes again
// (docs/reference/capi-core.md §1.14); their connects and disconnects wake
// the controllers.
void World::ServerChanged() {
  capi_->WorkloadServerChanged(ClusterKey());
  for (auto& [name, m] : provider_managers_) m->WorkloadServerChanged(ClusterKey());
}

// The workload API server answers once its control plane is up, unless a
// partition cuts it off.
bool World::WorkloadAnswers() const {
  return loop_.Now() >= sc_.spec().workload_cluster().control_plane_ready_at() &&
         partition_->Reachable();
}

// Each connect and disconnect of a manager's ClusterCache is a timeline row
// `ClusterCache,<manager>/<cluster>,connected`.
Manager::Options World::ManagerOptions(const std::string& name) {
  Manager::Options o{name, ToDistSpec(sc_.spec().controller().informer_lag()), seed_};
  o.on_connection = [this, name](const ObjectKey& cluster, bool connected) {
    rec_.Change(loop_.Now(), "ClusterCache", name + "/" + cluster.name, "connected",
                connected ? "false" : "true", connected ? "true" : "false");
  };
  return o;
}

void World::HookReconciles(Manager* m) {
  for (ControllerHandle* h : m->controllers()) {
    controllers_.push_back(h);
    std::string name = h->name();
    const Duration sync_period = h->queue().sync_period();
    const size_t load = rec_.AddQueueLoad(name);
    h->queue().OnLoad([this, load](Time at, int depth_step, int busy_step) {
      rec_.QueueLoadStepped(load, at, depth_step, busy_step);
    });
    h->queue().OnReconcile([this, name, sync_period](const ReconcileRecord& r) {
      std::string outcome = r.status.ok() ? "ok" : "error: " + r.status.message();
      if (r.status.ok() && r.result.requeue_after > 0) {
        outcome = "requeueAfter " + FormatDuration(r.result.requeue_after);
      }
      const Duration resync = r.woken_by == RequeueReason::kResync ? sync_period : 0;
      rec_.Reconcile({name, r.request.key.name, r.start, r.end, outcome, resync});
      if (!r.status.ok()) {
        const std::string pool = PoolOf(r.request.key.name);
        if (!pool.empty()) rec_.ReconcileError(r.start, pool, name, r.status.message());
      }
      RecordRequeue(name, r);
    });
  }
}

// Requeues go on the timeline too (issue 8: "requeues and their reason"), so
// that the 30 s rhythm of docs/reference/capi-core.md §1.11 can be seen and checked.
void World::RecordRequeue(const std::string& controller, const ReconcileRecord& r) {
  std::string why;
  if (!r.status.ok()) {
    why = "error backoff";
  } else if (r.result.requeue_after > 0) {
    why = FormatDuration(r.result.requeue_after);
  } else if (r.result.requeue) {
    why = "requeue";
  } else {
    return;
  }
  const std::string& object = r.request.key.name;
  const std::string pool = pools_.count(object) ? object : "";
  rec_.Change(loop_.Now(), "Controller", controller + "/" + object, "requeue", "", why, pool);
}

// The pool a reconciled object belongs to: a MachinePool and its
// InfraMachinePool are named after it, a Machine and an InfraMachine carry
// its name in a label. "" for anything else, or a member already gone.
std::string World::PoolOf(const std::string& object) {
  if (pools_.count(object)) return object;
  const ObjectKey key{kNamespace, object};
  auto label = [](const ObjectMeta& meta) {
    auto it = meta.labels.find(capi::kMachinePoolNameLabel);
    return it == meta.labels.end() ? std::string() : std::string(it->second);
  };
  if (auto m = mgmt_.Store<Machine>().Find(key)) return label(m->meta);
  if (auto m = mgmt_.Store<InfraMachine>().Find(key)) return label(m->meta);
  return "";
}

void World::CreateCluster() {
  Cluster cluster;
  cluster.meta.name = kClusterName;
  cluster.meta.ns = kNamespace;
  mgmt_.Store<Cluster>().Create(&cluster);
  const Time at = sc_.spec().workload_cluster().control_plane_ready_at();
  loop_.At(at, [this] {
    Cluster c;
    if (!mgmt_.Store<Cluster>().Get(ClusterKey(), &c).ok()) return;
    SetCondition(&c.status.conditions, {.type = "ControlPlaneInitialized", .status = "True"},
                 loop_.Now());
    mgmt_.Store<Cluster>().Patch(&c);
    rec_.Change(loop_.Now(), "Cluster", kClusterName, "ControlPlaneInitialized", "False", "True");
  });
}

void World::CreatePool(const proto::MachinePoolSpec& p) {
  const std::string kind = providers_.at(ProviderName(p))->KindOf(p);
  BootstrapConfig boot;
  boot.meta = {.name = p.name(), .ns = kNamespace};
  mgmt_.Store<BootstrapConfig>().Create(&boot);
  InfraMachinePool imp;
  imp.meta = {.name = p.name(), .ns = kNamespace};
  imp.kind = kind;
  mgmt_.Store<InfraMachinePool>().Create(&imp);

  MachinePool mp;
  mp.meta = {.name = p.name(), .ns = kNamespace};
  for (const auto& [k, v] : p.annotations()) mp.meta.annotations[k] = v;
  AnnotateNodeGroup(p, &mp);
  mp.spec.cluster_name = kClusterName;
  mp.spec.replicas = p.replicas();
  MachineSpec& ms = mp.spec.template_.spec;
  ms.cluster_name = kClusterName;
  ms.bootstrap.config_ref =
      ObjectReference{"bootstrap.cluster.x-k8s.io/v1beta2", "KubeadmConfig", kNamespace, p.name()};
  ms.infrastructure_ref =
      ObjectReference{"infrastructure.cluster.x-k8s.io/v1beta2", kind, kNamespace, p.name()};
  ms.version = p.version();
  ms.min_ready_seconds = p.min_ready_seconds();
  ms.deletion.node_deletion_timeout_seconds =
      static_cast<int32_t>(p.node_deletion_timeout() / kSecond);
  mgmt_.Store<MachinePool>().Create(&mp);
}

bool World::Run(RunOutput* out, std::string* error) {
  RunLimits limits(sc_.spec().limits());
  EventLoop::Stats stats = loop_.Run(sc_.spec().horizon(), limits.ForLoop());
  *error = limits.Error(stats, rec_);
  if (!error->empty()) return false;
  observer_->Finish();
  SummaryInputs in{&sc_, seed_, &stats, observer_.get(), &rec_};
  for (ControllerHandle* h : controllers_) in.api_writes += h->api_writes();
  in.reconciles = mp_controller_->queue().reconciles();
  BuildSummary(in, &out->summary);
  if (pods_) {
    FillAutoscalingSummary(*pods_, autoscaler_.get(), &out->summary);
    out->pod_waits = PodWaitsOfRun(sc_.spec(), *pods_, rec_);
  }
  out->recorder = std::move(rec_);
  return true;
}

}  // namespace

bool RunScenario(const proto::Scenario& scenario, uint64_t seed, RunOutput* out,
                 std::string* error) {
  // Outlives the world, whose names, uids and providerIDs it owns; the
  // outputs hold none of them.
  StringArena strings;
  auto world = std::make_unique<World>(scenario, seed);
  if (!world->Build(error)) return false;
  return world->Run(out, error);
}

}  // namespace mpsim
