#include "models/test/test_provider.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "models/common/pool_members.h"
#include "models/test/test_schema.h"
#include "sim/distribution_proto.h"

namespace mpsim {
namespace {

const char* StateName(TestCloud::State s) {
  switch (s) {
    case TestCloud::State::kLaunching:
      return "Launching";
    case TestCloud::State::kRunning:
      return "Running";
    case TestCloud::State::kDeleting:
      return "Deleting";
  }
  return "Unknown";
}

constexpr Duration kPollInterval = 10 * kSecond;
constexpr uint64_t kFiveDigitNames = 100000;  // launch numbers below it name with five digits

// The suffix of a launch number's instance name: the number, zero-padded to
// five digits.
std::string LaunchSuffix(uint64_t seq) {
  char digits[24];
  const size_t n =
      static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, seq).ptr - digits);
  std::string out(n < 5 ? 5 - n : 0, '0');
  out.append(digits, n);
  return out;
}

}  // namespace

TestCloud::TestCloud(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
                     TestProviderOptions opts, uint64_t seed)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(std::move(opts)),
      launch_rng_(StreamFor(seed, "test/" + pool_ + "/launch")),
      delete_rng_(StreamFor(seed, "test/" + pool_ + "/delete")) {}

void TestCloud::Launch(const std::string& version) {
  std::string name = pool_ + "-" + LaunchSuffix(next_++);
  Instance& inst = instances_[name] = Instance{
      SharedString::Pinned(opts_.provider_id_prefix + name), version, State::kLaunching, next_ - 1};
  running_by_seq_.resize(next_);
  Count(inst, +1);
  rec_->ProviderApiCall(pool_, "test:Launch");
  rec_->Change(loop_->Now(), "Instance", name, "state", "", "Launching", pool_);
  loop_->After(Sample(opts_.launch_delay, launch_rng_), [this, name] {
    auto it = instances_.find(name);
    if (it == instances_.end() || it->second.state != State::kLaunching) return;
    SetState(name, &it->second, State::kRunning);
    workload_->InstanceBooted(pool_, name, it->second.provider_id, it->second.version);
  });
}

void TestCloud::Terminate(const std::string& name) {
  auto it = instances_.find(name);
  if (it == instances_.end() || it->second.state == State::kDeleting) return;
  SetState(name, &it->second, State::kDeleting);
  rec_->ProviderApiCall(pool_, "test:Terminate");
  loop_->After(Sample(opts_.delete_delay, delete_rng_), [this, name] {
    if (auto gone = instances_.find(name); gone != instances_.end()) {
      instances_.erase(gone);
    }
    running_ids_stale_ = true;
    rec_->Change(loop_->Now(), "Instance", name, "state", "Deleting", "Terminated", pool_);
    workload_->InstanceGone(name);
  });
}

const ProviderIDList& TestCloud::RunningIds() {
  if (running_ids_stale_) {
    std::vector<SharedString> ids;
    ids.reserve(running_);
    auto add = [&](uint64_t seq) {
      if (!running_by_seq_[seq].empty()) ids.push_back(running_by_seq_[seq]);
    };
    // The list is in name order. Names are "<pool>-%05d" of the launch
    // number, so launch order is name order until a sixth digit appears.
    if (next_ > kFiveDigitNames) {
      ExtendNameOrder();
      for (uint64_t seq : name_order_) add(seq);
    } else {
      for (uint64_t seq = 0; seq < next_; ++seq) add(seq);
    }
    running_ids_ = ProviderIDList::KnownStrictlySorted(std::move(ids), IdText());
    running_ids_stale_ = false;
  }
  return running_ids_;
}

// Sorting the names on every pass cost O(N log N) string compares per pass,
// and the passes grow with the pool: a 200,000-instance run spent two
// thirds of its time there. New launch numbers are few after the first
// scale-up, so they are sorted alone and merged in.
void TestCloud::ExtendNameOrder() {
  const size_t old = name_order_.size();
  if (old == next_) return;
  for (uint64_t seq = old; seq < next_; ++seq) name_order_.push_back(seq);
  auto name_less = [](uint64_t a, uint64_t b) { return LaunchSuffix(a) < LaunchSuffix(b); };
  std::sort(name_order_.begin() + static_cast<std::ptrdiff_t>(old), name_order_.end(), name_less);
  std::inplace_merge(name_order_.begin(), name_order_.begin() + static_cast<std::ptrdiff_t>(old),
                     name_order_.end(), name_less);
}

void TestCloud::Kill(std::string name) {
  auto it = instances_.find(name);
  if (it == instances_.end()) return;
  rec_->Fault(loop_->Now(), pool_, name, "instance.killed");
  rec_->Change(loop_->Now(), "Instance", name, "state", StateName(it->second.state), "Terminated",
               pool_);
  Count(it->second, -1);
  instances_.erase(it);
  running_ids_stale_ = true;
  workload_->InstanceGone(name);
}

void TestCloud::SetState(const std::string& name, Instance* inst, State s) {
  running_ids_stale_ = true;
  rec_->Change(loop_->Now(), "Instance", name, "state", StateName(inst->state), StateName(s),
               pool_);
  Count(*inst, -1);
  inst->state = s;
  Count(*inst, +1);
}

// Deleting instances count nowhere.
void TestCloud::Count(const Instance& inst, int32_t delta) {
  if (inst.state == State::kDeleting) return;
  live_ += delta;
  live_by_version_[inst.version] += delta;
  if (inst.state == State::kRunning) {
    running_ += delta;
    running_by_seq_[inst.seq] = delta > 0 ? inst.provider_id : SharedString();
  }
  if (inst.state == State::kLaunching) launching_ += delta;
}

int32_t TestCloud::LiveWithVersion(const std::string& version) const {
  auto it = live_by_version_.find(version);
  return it == live_by_version_.end() ? 0 : it->second;
}

TestInfraReconciler::TestInfraReconciler(Client* client, const Clock* clock, Recorder* rec,
                                         std::map<std::string, TestCloud*> clouds)
    : client_(client), clock_(clock), rec_(rec), clouds_(std::move(clouds)) {}

void TestInfraReconciler::Setup(Builder* b) {
  b->WatchInfraMachinePools([](const WatchEvent<InfraMachinePool>& ev) {
    if (ev.obj.kind != kTestMachinePoolKind) return std::vector<Request>{};
    return std::vector<Request>{{ev.obj.meta.Key()}};
  });
  // Its InfraMachines, mapped to their pool by the non-controller owner ref.
  WatchPoolMembers(b, kTestMachineKind, kTestMachinePoolKind);
  // The owner MachinePool's replicas and version drive the pool.
  b->WatchMachinePools([](const WatchEvent<MachinePool>& ev) {
    const ObjectReference& ref = ev.obj.spec.template_.spec.infrastructure_ref;
    if (ref.kind != kTestMachinePoolKind) return std::vector<Request>{};
    return std::vector<Request>{{{ev.obj.meta.ns, ref.name}}};
  });
}

Status TestInfraReconciler::Reconcile(const Request& req, Result* result) {
  // Shared reads: a pool of N lists N providerIDs, so copies cost O(N).
  std::shared_ptr<const InfraMachinePool> cached = client_->InfraMachinePools().GetShared(req.key);
  if (cached == nullptr) return ReleaseMembers(req.key);
  auto cit = clouds_.find(cached->meta.name);
  if (cit == clouds_.end()) return Status::Invalid("no test cloud for " + req.key.String());
  TestCloud* cloud = cit->second;
  const InfraMachinePool& base = *cached;  // patches send only what this pass changed
  if (base.meta.deletion_timestamp) {
    InfraMachinePool imp = base;
    return ReconcileDelete(&imp, cloud, result);
  }
  if (std::find(base.meta.finalizers.begin(), base.meta.finalizers.end(), kInfraFinalizer) ==
      base.meta.finalizers.end()) {
    InfraMachinePool imp = base;
    imp.meta.finalizers.push_back(kInfraFinalizer);
    return client_->InfraMachinePools().Patch(base, &imp);
  }
  const OwnerReference* owner = ControllerOwner(base.meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();  // waits for the MachinePool to adopt it
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({base.meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  if (cloud->options().machine_pool_machines) {
    if (Status s = SyncMachines(base, *mp, cloud); !s.ok()) return s;
  }
  Scale(*mp, cloud);
  return Report(base, *mp, cloud, result);
}

// Writes providerIDList, replicas and readiness when they differ from what
// the pool already says.
Status TestInfraReconciler::Report(const InfraMachinePool& base, const MachinePool& mp,
                                   TestCloud* cloud, Result* result) {
  const ProviderIDList& ids = cloud->RunningIds();
  const int32_t n = static_cast<int32_t>(ids.size());
  const bool complete =
      n == static_cast<int32_t>(cloud->instances().size()) && n == mp.spec.replicas.value_or(1);
  if (!complete) result->requeue_after = kPollInterval;
  const bool ready = !cloud->options().ready_when_all_running || complete;
  const std::string& reason = cloud->options().failure_reason;
  const std::optional<int32_t> replicas =
      cloud->options().reports_replicas ? std::optional<int32_t>(n) : std::nullopt;
  const std::optional<std::string> machine_kind = cloud->options().machine_pool_machines
                                                      ? std::optional<std::string>(kTestMachineKind)
                                                      : std::nullopt;
  const bool same = base.spec.provider_id_list == ids && base.status.replicas == replicas &&
                    base.status.ready == ready && base.status.initialization_provisioned == ready &&
                    (reason.empty() || base.status.failure_reason == reason) &&
                    base.status.infrastructure_machine_kind == machine_kind;
  if (same) return Status::Ok();
  InfraMachinePool imp = base;
  imp.status.infrastructure_machine_kind = machine_kind;
  imp.spec.provider_id_list = ids;
  imp.status.replicas = replicas;
  imp.status.ready = ready;
  imp.status.initialization_provisioned = ready;
  if (!reason.empty()) {
    imp.status.failure_reason = reason;
    imp.status.failure_message = "injected by the scenario (provider.test.failureReason)";
  }
  return client_->InfraMachinePools().Patch(base, &imp);
}

// Surge-one rolling replacement: launch a new instance, retire an outdated
// one only once the pool has more running instances than desired.
namespace {

// Scale-in retires the instances whose Machine is marked for deletion
// first, as CAPD does (docs/reference/autoscaler.md §6.6), then outdated
// ones, then the newest current ones.
std::vector<std::string> ScaleInVictims(const TestCloud& cloud,
                                        const std::vector<std::string>& marked,
                                        const std::vector<const std::string*>& outdated,
                                        const std::string& version, int32_t excess) {
  std::vector<std::string> out;
  const std::set<std::string> taken(marked.begin(), marked.end());
  auto add = [&](const std::string& name) {
    if (static_cast<int32_t>(out.size()) >= excess) return false;
    out.push_back(name);
    return true;
  };
  for (const std::string& name : marked) {
    if (!add(name)) return out;
  }
  for (const std::string* name : outdated) {
    if (!taken.count(*name) && !add(*name)) return out;
  }
  const auto& all = cloud.instances();
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    const TestCloud::Instance& inst = it->second;
    if (inst.state != TestCloud::State::kDeleting && inst.version == version &&
        !taken.count(it->first) && !add(it->first)) {
      break;
    }
  }
  return out;
}

}  // namespace

// The live instances whose MachinePool Machine (named after the instance)
// carries the delete-machine annotation; none unless the pool scales in.
std::vector<std::string> TestInfraReconciler::MarkedForDeletion(const MachinePool& mp,
                                                                const TestCloud& cloud,
                                                                int32_t excess) {
  std::vector<std::string> marked;
  if (excess <= 0 || !cloud.options().machine_pool_machines) return marked;
  for (const auto& [name, inst] : cloud.instances()) {
    Machine m;
    if (inst.state == TestCloud::State::kDeleting ||
        !client_->Machines().Get({mp.meta.ns, name}, &m).ok()) {
      continue;
    }
    if (m.meta.annotations.count(kDeleteMachineAnnotation)) marked.push_back(name);
  }
  return marked;
}

void TestInfraReconciler::Scale(const MachinePool& mp, TestCloud* cloud) {
  const int32_t desired = mp.spec.replicas.value_or(1);
  const std::string version = mp.spec.template_.spec.version.value_or("");
  const int32_t n = cloud->live(), running = cloud->running(), launching = cloud->launching();
  // Pointers to the names in the instance map (which Launch and Terminate
  // leave valid), not copies; the pool is scanned only during a rollout.
  std::vector<const std::string*> outdated;
  if (cloud->LiveWithVersion(version) != n) {
    for (const auto& [name, inst] : cloud->instances()) {
      if (inst.state != TestCloud::State::kDeleting && inst.version != version) {
        outdated.push_back(&name);
      }
    }
  }
  const int32_t surge = outdated.empty() ? 0 : 1;
  const std::vector<std::string> victims =
      ScaleInVictims(*cloud, MarkedForDeletion(mp, *cloud, n - desired - surge), outdated, version,
                     n - desired - surge);
  for (int32_t i = n; i < desired; ++i) cloud->Launch(version);
  for (const std::string& name : victims) cloud->Terminate(name);
  if (surge == 0 || launching > 0) return;
  if (n == desired) {
    cloud->Launch(version);
  } else if (n == desired + 1 && running == n) {
    cloud->Terminate(*outdated.front());
  }
}

Status TestInfraReconciler::ReconcileDelete(InfraMachinePool* imp, TestCloud* cloud,
                                            Result* result) {
  if (cloud->instances().empty() && imp->meta.finalizers.empty()) return Status::Ok();
  std::vector<std::string> names;
  for (const auto& [name, inst] : cloud->instances()) names.push_back(name);
  for (const std::string& name : names) cloud->Terminate(name);
  if (!cloud->instances().empty()) {
    result->requeue_after = kPollInterval;
    return Status::Ok();
  }
  const InfraMachinePool base = *imp;
  std::erase(imp->meta.finalizers, std::string(kInfraFinalizer));
  return client_->InfraMachinePools().Patch(base, imp);
}

void TestProvider::AddPool(const proto::MachinePoolSpec& pool) {
  const auto& t = pool.test();
  TestProviderOptions opts{
      ToDistSpec(t.launch_delay()), ToDistSpec(t.delete_delay()),
      t.provider_id_prefix(),       t.ready_when() == "allRunning",
      t.failure_reason(),           !t.has_reports_replicas() || t.reports_replicas(),
      t.machine_pool_machines()};
  clouds_[pool.name()] = std::make_unique<TestCloud>(ctx_.loop, ctx_.workload, ctx_.recorder,
                                                     pool.name(), opts, ctx_.seed);
}

void TestProvider::AddControllers(Manager* manager) {
  std::map<std::string, TestCloud*> clouds;
  for (const auto& [name, cloud] : clouds_) clouds[name] = cloud.get();
  WorkQueueOptions q;
  q.workers = 10;
  q.policy = RateLimitPolicy::ControllerRuntimeDefault();
  q.priority_queue = false;  // as the real providers' managers (docs/reference/providers.md §0.1)
  q.reconcile_duration = ToDistSpec(ctx_.controller->reconcile_duration());
  manager->AddController<InfraMachinePool>(
      "testmachinepool", q,
      [this, clouds](Client* client) {
        return std::make_unique<TestInfraReconciler>(client, ctx_.loop, ctx_.recorder, clouds);
      },
      OwnKind());
}

bool TestProvider::CreatesMachines(const std::string& pool) const {
  auto it = clouds_.find(pool);
  return it != clouds_.end() && it->second->options().machine_pool_machines;
}

int TestProvider::KillInstances(const std::string& pool, int count, Rng* rng) {
  auto it = clouds_.find(pool);
  if (it == clouds_.end()) return 0;
  std::vector<std::string> running;
  for (const auto& [name, inst] : it->second->instances()) {
    if (inst.state == TestCloud::State::kRunning) running.push_back(name);
  }
  const auto victims = DrawWithoutReplacement(std::move(running), count, rng);
  for (const std::string& name : victims) it->second->Kill(name);
  return static_cast<int>(victims.size());
}

namespace test {

ProviderRegistration Registration() {
  return {.block = "test",
          .defaults = Defaults,
          .validate = ValidateBlock,
          .make = [](const ProviderContext& ctx) -> std::unique_ptr<InfraProvider> {
            return std::make_unique<TestProvider>(ctx);
          },
          .controllers = {{.controller = "testmachinepool",
                           .title = "test provider's InfraMachinePool"}},
          .instance_states = {{"Launching", InstanceStage::kCreating},
                              {"Running", InstanceStage::kRunning},
                              {"Deleting", InstanceStage::kDeleting},
                              {"Terminated", InstanceStage::kGone}}};
}

}  // namespace test

}  // namespace mpsim
