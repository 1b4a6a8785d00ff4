// Rules of the event list and the expectations: what they name must exist,
// and must happen inside the horizon and before its pool is deleted.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/registry.h"
#include "scenario/validate.h"
#include "sim/duration.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::scenario {
namespace {

const std::vector<std::string> kPhases = {"Pending",   "Provisioning", "Provisioned", "Running",
                                          "ScalingUp", "ScalingDown",  "Scaling",     "Deleting",
                                          "Failed",    "Unknown"};

// When and by which event a pool is deleted.
struct Deletion {
  int64_t at = 0;
  int index = 0;
};

// Checks against the pools a scenario defines and its horizon.
class Checker {
 public:
  Checker(const proto::ScenarioSpec& spec, std::vector<Issue>* issues)
      : spec_(spec), issues_(issues) {
    for (const proto::MachinePoolSpec& p : spec.machine_pools()) {
      if (!p.name().empty()) pools_.insert(p.name());
    }
  }

  void Events() {
    if (spec_.events_size() > kMaxEvents) {
      Add("spec.events", "at most " + std::to_string(kMaxEvents) + " events are allowed");
    }
    for (int i = 0; i < spec_.events_size(); ++i) {
      const proto::Event& e = spec_.events(i);
      // deleteCluster deletes every pool (docs/reference/cluster-deletion.md).
      std::vector<std::string> deleted;
      if (e.has_delete_pool()) deleted.push_back(e.delete_pool().pool());
      if (e.has_delete_cluster()) deleted.assign(pools_.begin(), pools_.end());
      for (const std::string& pool : deleted) {
        auto [it, fresh] = deletions_.try_emplace(pool, Deletion{e.at(), i});
        if (!fresh && e.at() < it->second.at) it->second = {e.at(), i};
      }
    }
    for (int i = 0; i < spec_.events_size(); ++i) {
      Event(spec_.events(i), i, JoinIndex("spec.events", i));
    }
  }

  void Expectations() {
    if (spec_.expect_size() > kMaxExpectations) {
      Add("spec.expect",
          "at most " + std::to_string(kMaxExpectations) + " expectations are allowed");
    }
    for (int i = 0; i < spec_.expect_size(); ++i) {
      Expectation(spec_.expect(i), JoinIndex("spec.expect", i));
    }
  }

 private:
  void Add(const std::string& path, std::string message) {
    issues_->push_back({path, std::move(message), ""});
  }

  void KnownPool(const std::string& pool, const std::string& path) {
    if (pool.empty()) return Add(path, "missing pool");
    if (pools_.count(pool)) return;
    const std::vector<std::string> names(pools_.begin(), pools_.end());
    Add(path, "unknown pool " + Quote(pool) + "; the scenario's pools are " + OrList(names) +
                  DidYouMean(pool, names));
  }

  void Event(const proto::Event& e, int index, const std::string& path) {
    if (!e.has_at()) {
      Add(JoinKey(path, "at"), "missing at: when the event happens, such as 5m");
    } else if (e.at() >= spec_.horizon()) {
      Add(JoinKey(path, "at"), "at " + FormatDuration(e.at()) + " is at or past the horizon (" +
                                   FormatDuration(spec_.horizon()) + ")");
    }
    std::string pool;
    switch (e.action_case()) {
      case proto::Event::kScale:
        pool = e.scale().pool();
        Scale(e.scale(), JoinKey(path, "scale"));
        break;
      case proto::Event::kUpgrade:
        pool = e.upgrade().pool();
        KnownPool(pool, JoinKey(path, "upgrade.pool"));
        CheckVersion(e.upgrade().version(), JoinKey(path, "upgrade.version"), issues_);
        break;
      case proto::Event::kDeletePool:
        pool = e.delete_pool().pool();
        KnownPool(pool, JoinKey(path, "deletePool.pool"));
        break;
      case proto::Event::kKillInstance:
        pool = e.kill_instance().pool();
        KnownPool(pool, JoinKey(path, "killInstance.pool"));
        if (e.kill_instance().has_count() && e.kill_instance().count() == 0) {
          Add(JoinKey(path, "killInstance.count"), "expected at least 1 instance");
        }
        break;
      case proto::Event::kPauseCluster:
      case proto::Event::kResumeCluster:
      case proto::Event::kDeleteCluster:
        break;
      case proto::Event::kSetAutoscalerReplicas: {
        pool = e.set_autoscaler_replicas().pool();
        const std::string p = JoinKey(path, "setAutoscalerReplicas");
        KnownPool(pool, JoinKey(p, "pool"));
        if (!e.set_autoscaler_replicas().has_replicas()) {
          Add(p, "missing replicas");
        } else if (e.set_autoscaler_replicas().replicas() > kMaxReplicas) {
          Add(JoinKey(p, "replicas"), "expected at most " + std::to_string(kMaxReplicas) +
                                          " replicas, got " +
                                          std::to_string(e.set_autoscaler_replicas().replicas()));
        }
        break;
      }
      case proto::Event::kWorkloadUnreachable:
        if (!e.workload_unreachable().has_for_()) {
          Add(JoinKey(path, "workloadUnreachable"), "missing for: how long, such as 5m");
        } else if (e.workload_unreachable().for_() == 0) {
          Add(JoinKey(path, "workloadUnreachable.for"), "expected more than 0s");
        }
        break;
      case proto::Event::kDeleteMachine:
        pool = e.delete_machine().pool();
        DeleteMachine(e.delete_machine(), JoinKey(path, "deleteMachine"));
        break;
      case proto::Event::kSetInfraPoolSpec: {
        pool = e.set_infra_pool_spec().pool();
        const std::string p = JoinKey(path, "setInfraPoolSpec");
        KnownPool(pool, JoinKey(p, "pool"));
        InfraPoolSpecEdit(PoolSpec(pool), e.set_infra_pool_spec(), p);
        break;
      }
      case proto::Event::kPods:
        ValidatePodsEvent(e.pods(), JoinKey(path, "pods"), issues_);
        break;
      case proto::Event::kDeletePods:
        ValidateDeletePodsEvent(e.delete_pods(), JoinKey(path, "deletePods"), issues_);
        break;
      case proto::Event::ACTION_NOT_SET:
        return Add(path,
                   "an event needs one of scale, upgrade, deletePool, killInstance, "
                   "pauseCluster, resumeCluster, setAutoscalerReplicas, workloadUnreachable, "
                   "deleteMachine, setInfraPoolSpec, deleteCluster, pods or deletePods");
    }
    AfterDeletion(pool, e.at(), index, path);
  }

  // A user's edit of a pool's InfraMachinePool: its provider says which
  // fields it takes (models/registry.h).
  void InfraPoolSpecEdit(const proto::MachinePoolSpec* pool,
                         const proto::Event::SetInfraPoolSpec& edit, const std::string& path) {
    if (edit.fields().empty())
      return Add(JoinKey(path, "fields"), "expected at least one field to set");
    if (pool == nullptr) return;  // an unknown pool is reported on its own
    const ProviderRegistration* r = FindProvider(*pool);
    if (r != nullptr && r->validate_edit != nullptr)
      return r->validate_edit(*pool, edit, path, issues_);
    Add(JoinKey(path, "pool"), EditRefusal(pool->name()));
  }

  const proto::MachinePoolSpec* PoolSpec(const std::string& name) const {
    for (const proto::MachinePoolSpec& p : spec_.machine_pools()) {
      if (p.name() == name) return &p;
    }
    return nullptr;
  }

  void Scale(const proto::Event::Scale& s, const std::string& path) {
    KnownPool(s.pool(), JoinKey(path, "pool"));
    if (!s.has_replicas()) {
      Add(path, "missing replicas");
    } else if (s.replicas() > kMaxReplicas) {
      Add(JoinKey(path, "replicas"), "expected at most " + std::to_string(kMaxReplicas) +
                                         " replicas, got " + std::to_string(s.replicas()));
    }
  }

  // Whether the pool's provider makes Machines is known only when the world
  // is built (app/world.cc), so only the shape is checked here.
  void DeleteMachine(const proto::Event::DeleteMachine& d, const std::string& path) {
    KnownPool(d.pool(), JoinKey(path, "pool"));
    if (d.has_machine() && d.has_index()) {
      Add(JoinKey(path, "index"), "give machine or index, not both");
    }
    if (d.has_machine() && d.machine().empty()) {
      Add(JoinKey(path, "machine"), "expected a Machine name");
    }
  }

  // Nothing can happen to a pool once it is deleted; same-time events keep file order.
  void AfterDeletion(const std::string& pool, int64_t at, int index, const std::string& path) {
    auto it = deletions_.find(pool);
    if (it == deletions_.end() || it->second.index == index) return;
    const Deletion& d = it->second;
    if (at > d.at || (at == d.at && index > d.index)) {
      Add(path, "pool " + Quote(pool) + " is deleted at " + FormatDuration(d.at) +
                    " by spec.events[" + std::to_string(d.index) +
                    "]; nothing can happen to it after");
    }
  }

  void Expectation(const proto::Expectation& e, const std::string& path) {
    KnownPool(e.pool(), JoinKey(path, "pool"));
    if (e.has_phase()) CheckOneOf(e.phase(), kPhases, JoinKey(path, "phase"), "phase", issues_);
    if (e.has_never_phase()) {
      CheckOneOf(e.never_phase(), kPhases, JoinKey(path, "neverPhase"), "phase", issues_);
    }
    const bool any = e.has_phase() || e.has_converged() || e.has_ready_replicas() ||
                     e.has_matching_p99_below() || e.has_never_phase() || e.has_nodes() ||
                     e.has_instances() || e.has_row() || e.has_max_reconciles() ||
                     e.has_max_api_calls();
    if (!any) {
      Add(path,
          "an expectation needs at least one of phase, converged, readyReplicas, "
          "matchingP99Below, neverPhase, nodes, instances, row, maxReconciles, maxApiCalls");
    }
    Within(e, path);
    Dependents(e, path);
  }

  void Within(const proto::Expectation& e, const std::string& path) {
    if (!e.has_within()) return;
    const std::string within = JoinKey(path, "within");
    if (!e.has_phase()) {
      Add(within, "within bounds the time to reach a phase; give a phase or remove within");
    } else if (e.within() == 0) {
      Add(within, "within must be more than 0s");
    } else if (e.within() > spec_.horizon()) {
      Add(within, "within (" + FormatDuration(e.within()) + ") is past the horizon (" +
                      FormatDuration(spec_.horizon()) + ")");
    }
  }

  // Keys that only make sense beside another one.
  void Dependents(const proto::Expectation& e, const std::string& path) {
    if (e.has_at() && !e.has_ready_replicas()) {
      Add(JoinKey(path, "at"), "at is the time readyReplicas is checked; give readyReplicas");
    } else if (e.has_at() && e.at() > spec_.horizon()) {
      Add(JoinKey(path, "at"), "at (" + FormatDuration(e.at()) + ") is past the horizon (" +
                                   FormatDuration(spec_.horizon()) + ")");
    }
    const char* needs_row = e.has_before()  ? "before"
                            : e.has_after() ? "after"
                            : e.has_never() ? "never"
                                            : nullptr;
    if (needs_row != nullptr && !e.has_row()) {
      Add(JoinKey(path, needs_row), std::string(needs_row) + " needs a row to compare");
    }
    if (e.has_before() && e.has_after()) {
      Add(JoinKey(path, "after"), "give before or after, not both");
    }
    if (e.has_never() && e.has_before()) {
      Add(JoinKey(path, "never"), "never cannot be combined with before; use after");
    }
  }

  const proto::ScenarioSpec& spec_;
  std::vector<Issue>* issues_;
  std::set<std::string> pools_;                // names of the scenario's pools
  std::map<std::string, Deletion> deletions_;  // pool name -> its earliest deletePool
};

}  // namespace

void ValidateEvents(const proto::ScenarioSpec& spec, std::vector<Issue>* issues) {
  Checker(spec, issues).Events();
}

void ValidateExpectations(const proto::ScenarioSpec& spec, std::vector<Issue>* issues) {
  Checker(spec, issues).Expectations();
}

}  // namespace mpsim::scenario
