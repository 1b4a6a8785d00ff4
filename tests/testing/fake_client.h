// An in-memory Client for controller tests, in the spirit of controller-runtime's
// fake client: reads see writes at once, uids are kept as the fixture gives
// them (none are invented), resourceVersion is bumped on every change, Delete
// honours finalizers, and errors can be injected per kind and verb. Workload
// Nodes live in a separate store. Header-only: only *_test.cc files are built.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/client.h"
#include "api/indexes.h"
#include "sim/bootstrap_provider.h"
#include "sim/merge_patch.h"

namespace mpsim::fake {

class FakeClock : public Clock {
 public:
  // Far from zero so that "now - 1 min" and zero lastTransitionTimes differ.
  explicit FakeClock(Time now = 10 * kHour) : now_(now) {}
  Time Now() const override { return now_; }
  void Set(Time t) { now_ = t; }
  void Advance(Duration d) { now_ += d; }

 private:
  Time now_;
};

enum class Verb { kGet, kList, kCreate, kUpdate, kUpdateStatus, kPatch, kDelete };

// One kind's objects, ordered by (namespace, name) as the cache lists them.
template <class T>
class FakeObjectClient : public ObjectClient<T> {
 public:
  FakeObjectClient(uint64_t* resource_version, const Clock* clock)
      : rv_(resource_version), clock_(clock) {}

  // Seeds an object as given (uid, generation, deletionTimestamp kept).
  void Add(T obj) {
    obj.meta.resource_version = ++*rv_;
    objects_[obj.meta.Key()] = std::move(obj);
  }
  // Makes every later call of `verb` fail with `err` (List returns nothing).
  void FailOn(Verb verb, Status err) { fail_[verb] = std::move(err); }
  bool Has(const ObjectKey& key) const { return objects_.count(key) > 0; }
  const T& At(const ObjectKey& key) const { return objects_.at(key); }
  const std::map<ObjectKey, T>& objects() const { return objects_; }
  // Takes an object out at once, finalizers or not.
  void Remove(const ObjectKey& key) { objects_.erase(key); }
  size_t size() const { return objects_.size(); }
  int calls(Verb verb) const {
    auto it = calls_.find(verb);
    return it == calls_.end() ? 0 : it->second;
  }

  Status Get(const ObjectKey& key, T* out) override {
    if (Status s = Called(Verb::kGet); !s.ok()) return s;
    auto it = objects_.find(key);
    if (it == objects_.end()) return NotFound(key);
    *out = it->second;
    return Status::Ok();
  }

  std::vector<std::shared_ptr<const T>> List(const ListOptions<T>& opts) override {
    std::vector<std::shared_ptr<const T>> out;
    if (!Called(Verb::kList).ok()) return out;
    for (const auto& [key, obj] : objects_) {
      if (!opts.ns.empty() && key.ns != opts.ns) continue;
      if (!LabelsMatch(obj.meta.labels, opts.match_labels)) continue;
      if (opts.field && !opts.field(obj)) continue;
      if (!opts.index_field.empty() && !IndexHas(obj, opts)) continue;
      out.push_back(std::make_shared<const T>(obj));
    }
    return out;
  }

  Status Create(T* obj) override {
    if (Status s = Called(Verb::kCreate); !s.ok()) return s;
    if (objects_.count(obj->meta.Key())) {
      return Status::AlreadyExists(std::string(T::kKind) + " " + obj->meta.Key().String() +
                                   " already exists");
    }
    obj->meta.generation = 1;
    obj->meta.creation_timestamp = clock_->Now();
    obj->meta.deletion_timestamp.reset();
    obj->meta.resource_version = ++*rv_;
    objects_[obj->meta.Key()] = *obj;
    return Status::Ok();
  }

  Status Update(T* obj) override { return Write(Verb::kUpdate, obj, true, true, false); }
  Status UpdateStatus(T* obj) override {
    return Write(Verb::kUpdateStatus, obj, true, false, true);
  }
  Status Patch(T* obj) override { return Write(Verb::kPatch, obj, false, true, true); }
  Status Patch(const T& base, T* obj) override {
    auto it = objects_.find(obj->meta.Key());
    if (it == objects_.end()) {
      if (Status s = Called(Verb::kPatch); !s.ok()) return s;
      return NotFound(obj->meta.Key());
    }
    T merged = it->second;
    ApplyMergePatch(base, *obj, &merged);
    *obj = std::move(merged);
    return Write(Verb::kPatch, obj, false, true, true);
  }

  Status Delete(const ObjectKey& key) override {
    if (Status s = Called(Verb::kDelete); !s.ok()) return s;
    auto it = objects_.find(key);
    if (it == objects_.end()) return NotFound(key);
    if (it->second.meta.finalizers.empty()) {
      objects_.erase(it);
      return Status::Ok();
    }
    if (!it->second.meta.deletion_timestamp) {
      it->second.meta.deletion_timestamp = clock_->Now();
      it->second.meta.resource_version = ++*rv_;
    }
    return Status::Ok();
  }

 private:
  static Status NotFound(const ObjectKey& key) {
    return Status::NotFound(std::string(T::kKind) + " " + key.String() + " not found");
  }
  // The fake computes the index on the fly, as the fake client's indexers do.
  static bool IndexHas(const T& obj, const ListOptions<T>& opts) {
    std::vector<const SharedString*> values;
    FieldIndexes<T>::Values(obj, opts.index_field, &values);
    return std::any_of(values.begin(), values.end(),
                       [&](const SharedString* v) { return *v == opts.index_value; });
  }
  static bool LabelsMatch(const Labels& have, const Labels& want) {
    for (const auto& [k, v] : want) {
      auto it = have.find(k);
      if (it == have.end() || it->second != v) return false;
    }
    return true;
  }
  Status Called(Verb verb) {
    ++calls_[verb];
    auto it = fail_.find(verb);
    return it == fail_.end() ? Status::Ok() : it->second;
  }

  // The same server-side rules as the simulated API server: clients own labels,
  // annotations, ownerRefs, finalizers, spec and status; generation moves with spec.
  Status Write(Verb verb, T* obj, bool check_rv, bool meta_spec, bool status) {
    if (Status s = Called(verb); !s.ok()) return s;
    auto it = objects_.find(obj->meta.Key());
    if (it == objects_.end()) return NotFound(obj->meta.Key());
    T& cur = it->second;
    if (check_rv && obj->meta.resource_version != cur.meta.resource_version) {
      return Status::Conflict("the object has been modified");
    }
    T next = cur;
    if (meta_spec) CopyMetaAndSpec(*obj, &next);
    if constexpr (requires { next.status; }) {
      if (status) next.status = obj->status;
    }
    if (next == cur) {
      *obj = next;
      return Status::Ok();
    }
    if (next.meta.deletion_timestamp && next.meta.finalizers.empty()) {
      objects_.erase(it);
      *obj = next;
      return Status::Ok();
    }
    next.meta.resource_version = ++*rv_;
    cur = next;
    *obj = next;
    return Status::Ok();
  }

  static void CopyMetaAndSpec(const T& from, T* to) {
    to->meta.labels = from.meta.labels;
    to->meta.annotations = from.meta.annotations;
    to->meta.owner_references = from.meta.owner_references;
    to->meta.finalizers = from.meta.finalizers;
    if constexpr (requires { to->spec; }) {
      if (!(to->spec == from.spec)) {
        to->spec = from.spec;
        ++to->meta.generation;
      }
    }
    if constexpr (requires { to->kind; }) to->kind = from.kind;
    if constexpr (requires { to->contract_version; }) to->contract_version = from.contract_version;
    if constexpr (requires { to->data; }) {  // a Secret: type and data are its body
      to->type = from.type;
      to->data = from.data;
    }
  }

  uint64_t* rv_;
  const Clock* clock_;
  std::map<ObjectKey, T> objects_;
  std::map<Verb, Status> fail_;
  std::map<Verb, int> calls_;
};

struct RecordedEvent {
  ObjectKey obj;
  std::string type;
  std::string reason;
  std::string message;
};

class FakeClient : public Client {
 public:
  explicit FakeClient(const Clock* clock) : clock_(clock) {}

  ObjectClient<Cluster>& Clusters() override { return clusters_; }
  ObjectClient<MachinePool>& MachinePools() override { return machine_pools_; }
  ObjectClient<BootstrapConfig>& BootstrapConfigs() override { return bootstrap_configs_; }
  ObjectClient<InfraMachinePool>& InfraMachinePools() override { return infra_machine_pools_; }
  ObjectClient<Machine>& Machines() override { return machines_; }
  ObjectClient<InfraMachine>& InfraMachines() override { return infra_machines_; }
  ObjectClient<Secret>& Secrets() override { return secrets_; }

  Status WorkloadNodes(const ObjectKey&, ObjectClient<Node>** out) override {
    if (workload_unavailable) return Status::Unavailable("workload cluster is not connected");
    *out = &nodes_;
    return Status::Ok();
  }
  Status WatchWorkloadNodes(const ObjectKey& cluster) override {
    if (workload_unavailable) return Status::Unavailable("workload cluster is not connected");
    watched_clusters.insert(cluster);
    return Status::Ok();
  }
  using Client::RecordEvent;
  void RecordEvent(const ObjectKey& obj, const std::string& type, const std::string& reason,
                   const std::function<std::string()>& message) override {
    events.push_back({obj, type, reason, message()});
  }

  // Typed access for seeding, inspection and error injection.
  FakeObjectClient<Cluster>& clusters() { return clusters_; }
  FakeObjectClient<MachinePool>& machine_pools() { return machine_pools_; }
  FakeObjectClient<BootstrapConfig>& bootstrap_configs() { return bootstrap_configs_; }
  FakeObjectClient<InfraMachinePool>& infra_machine_pools() { return infra_machine_pools_; }
  FakeObjectClient<Machine>& machines() { return machines_; }
  FakeObjectClient<InfraMachine>& infra_machines() { return infra_machines_; }
  FakeObjectClient<Secret>& secrets() { return secrets_; }
  FakeObjectClient<Node>& nodes() { return nodes_; }

  bool workload_unavailable = false;  // WorkloadNodes and WatchWorkloadNodes fail
  std::set<ObjectKey> watched_clusters;
  std::vector<RecordedEvent> events;

 private:
  const Clock* clock_;
  uint64_t rv_ = 0;     // management cluster resourceVersion sequence
  uint64_t wl_rv_ = 0;  // workload cluster sequence
  FakeObjectClient<Cluster> clusters_{&rv_, clock_};
  FakeObjectClient<MachinePool> machine_pools_{&rv_, clock_};
  FakeObjectClient<BootstrapConfig> bootstrap_configs_{&rv_, clock_};
  FakeObjectClient<InfraMachinePool> infra_machine_pools_{&rv_, clock_};
  FakeObjectClient<Machine> machines_{&rv_, clock_};
  FakeObjectClient<InfraMachine> infra_machines_{&rv_, clock_};
  FakeObjectClient<Secret> secrets_{&rv_, clock_};
  FakeObjectClient<Node> nodes_{&wl_rv_, clock_};
};

// The bootstrap config `name` of pool mp-0, ready with `token`, and the data
// secret the bootstrap provider writes for it (sim/bootstrap_provider.h).
inline void SetBootstrapConfig(FakeClient* c, const std::string& name, const std::string& token) {
  BootstrapConfig cfg;
  cfg.meta = {.name = name, .ns = "default"};
  cfg.meta.owner_references.push_back({.kind = "MachinePool", .name = "mp-0", .controller = true});
  cfg.spec.join_token = token;
  cfg.status.data_secret_created = true;
  cfg.status.data_secret_name = name;
  c->bootstrap_configs().Add(cfg);
  c->secrets().Add(BootstrapDataSecret(cfg));
}

// The bootstrap provider's rotation of the join token of config `name`: a
// new token in the config and a new value under the same secret name.
inline void RotateJoinToken(FakeClient* c, const std::string& name) {
  const std::string token = c->bootstrap_configs().At({"default", name}).spec.join_token;
  SetBootstrapConfig(c, name, NextJoinToken(token));
}

// A MachinePool default/mp-0 of `replicas` at v1.30.0 and its
// InfraMachinePool of `kind`, owned by it: where every provider reconciler's
// tests start. `data_secret` is the bootstrap config and secret, if the pool
// has one.
inline void AddPoolPair(FakeClient* c, const std::string& kind, int32_t replicas,
                        std::optional<std::string> data_secret = std::nullopt) {
  if (data_secret) SetBootstrapConfig(c, *data_secret, "token-0");
  MachinePool mp;
  mp.meta = {.name = "mp-0", .ns = "default"};
  mp.spec.replicas = replicas;
  mp.spec.template_.spec.version = "v1.30.0";
  mp.spec.template_.spec.bootstrap.data_secret_name = std::move(data_secret);
  mp.spec.template_.spec.infrastructure_ref = {.kind = kind, .name = "mp-0"};
  c->machine_pools().Add(mp);
  InfraMachinePool imp;
  imp.meta = {.name = "mp-0", .ns = "default"};
  imp.meta.owner_references.push_back({.kind = "MachinePool", .name = "mp-0", .controller = true});
  imp.kind = kind;
  c->infra_machine_pools().Add(imp);
}

}  // namespace mpsim::fake
