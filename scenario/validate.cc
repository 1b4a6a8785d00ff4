#include "scenario/validate.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "models/registry.h"
#include "sim/duration.h"
#include "sim/request_size.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::scenario {
namespace {

const std::vector<std::string> kFixes = {"pr14234-nil-guards",
                                         "pr14030-initialization-provisioned"};
const std::vector<std::string> kProviderIDMatch = {"exact", "legacy-last-segment"};
const std::vector<std::string> kSetBy = {"kubelet", "cloud-controller-manager"};
constexpr int kMaxMinReadySeconds = 30 * 24 * 3600;

bool IsDnsLabel(const std::string& s) {
  static const std::regex label("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  return s.size() <= 63 && std::regex_match(s, label);
}

// The name becomes a results directory: no '/', no leading '.'.
bool IsScenarioName(const std::string& s) {
  static const std::regex name("[A-Za-z0-9][A-Za-z0-9._-]*");
  return s.size() <= 253 && std::regex_match(s, name);
}

class Validator {
 public:
  Validator(const proto::Scenario& sc, std::vector<Issue>* issues)
      : sc_(sc), spec_(sc.spec()), issues_(issues) {}

  void Run() {
    Header();
    if (spec_.horizon() == 0) Add("spec.horizon", "the horizon must be more than 0s");
    Controller(spec_.controller(), "spec.controller");
    Workload(spec_.workload_cluster(), "spec.workloadCluster");
    Pools();
    Limits(spec_.limits(), "spec.limits");
    ApiServer(spec_.api_server(), "spec.apiServer");
  }

 private:
  void Add(const std::string& path, std::string message) {
    issues_->push_back({path, std::move(message), ""});
  }

  void Dist(const proto::Distribution& d, const std::string& path) {
    ValidateDistribution(d, path, issues_);
  }

  void OneOf(const std::string& value, const std::vector<std::string>& allowed,
             const std::string& path, const std::string& what) {
    CheckOneOf(value, allowed, path, what, issues_);
  }

  void Probability(double p, const std::string& path) { CheckProbability(p, path, issues_); }

  // A zero budget would stop every run before its first event.
  void Limits(const proto::Limits& l, const std::string& path) {
    const char* kAtLeastOne = "expected at least 1";
    if (l.max_events() == 0) Add(JoinKey(path, "maxEvents"), kAtLeastOne);
    if (l.max_memory_mib() == 0) Add(JoinKey(path, "maxMemoryMiB"), kAtLeastOne);
    if (l.max_events_per_instant() == 0) Add(JoinKey(path, "maxEventsPerInstant"), kAtLeastOne);
  }

  // A limit under a MachinePool's fixed part would refuse every pool at its
  // creation, which no study means.
  void ApiServer(const proto::ApiServerSpec& a, const std::string& path) {
    const uint64_t bytes = a.max_object_bytes();
    if (bytes != 0 && bytes <= kMachinePoolFixedBytes) {
      Add(JoinKey(path, "maxObjectBytes"),
          "expected 0 (no limit) or more than " + std::to_string(kMachinePoolFixedBytes) +
              " bytes (a MachinePool's size without its lists), got " + std::to_string(bytes));
    }
  }

  void Header() {
    if (sc_.api_version() != "mpsim/v1") {
      Add("apiVersion", sc_.api_version().empty()
                            ? "missing apiVersion: a scenario starts with apiVersion: mpsim/v1"
                            : "expected mpsim/v1, got " + Quote(sc_.api_version()));
    }
    if (sc_.kind() != "Scenario") {
      Add("kind", sc_.kind().empty() ? "missing kind: expected kind: Scenario"
                                     : "expected Scenario, got " + Quote(sc_.kind()));
    }
    const std::string& name = sc_.metadata().name();
    if (name.empty()) {
      Add("metadata.name", "missing metadata.name: it names the run and its results directory");
    } else if (!IsScenarioName(name)) {
      const std::string rule =
          "expected letters, digits, '.', '_' and '-', starting with a letter or digit, at most "
          "253 characters; got ";
      Add("metadata.name", rule + Quote(name));
    }
  }

  void Controller(const proto::ControllerSpec& c, const std::string& path) {
    const int workers = c.max_concurrent_reconciles();
    if (workers < 1 || workers > kMaxConcurrentReconciles) {
      const std::string range = "expected 1 to " + std::to_string(kMaxConcurrentReconciles);
      Add(JoinKey(path, "maxConcurrentReconciles"),
          range + " workers, got " + std::to_string(workers));
    }
    Dist(c.informer_lag(), JoinKey(path, "informerLag"));
    Dist(c.reconcile_duration(), JoinKey(path, "reconcileDuration"));
    if (c.reconcile_cost().has_base()) {
      Dist(c.reconcile_cost().base(), JoinKey(path, "reconcileCost.base"));
    }
    if (c.reconcile_cost().per_object_listed() < 0) {
      Add(JoinKey(path, "reconcileCost.perObjectListed"),
          "expected a duration of at least 0, got " +
              FormatDuration(c.reconcile_cost().per_object_listed()));
    }
    if (c.sync_period() < kSecond) {
      Add(JoinKey(path, "syncPeriod"),
          "expected at least 1s, got " + FormatDuration(c.sync_period()));
    }
    OneOf(c.provider_id_match(), kProviderIDMatch, JoinKey(path, "providerIDMatch"),
          "providerIDMatch");
    std::set<std::string> seen;
    for (int i = 0; i < c.fixes_size(); ++i) {
      const std::string item = JoinIndex(JoinKey(path, "fixes"), i);
      OneOf(c.fixes(i), kFixes, item, "fix");
      if (!seen.insert(c.fixes(i)).second) Add(item, "fix " + Quote(c.fixes(i)) + " listed twice");
    }
  }

  void Workload(const proto::WorkloadClusterSpec& w, const std::string& path) {
    Dist(w.node_registration(), JoinKey(path, "nodeRegistration"));
    Dist(w.node_ready(), JoinKey(path, "nodeReady"));
    Dist(w.bootstrap_delay(), JoinKey(path, "bootstrapDelay"));
    const std::string pid = JoinKey(path, "providerID");
    OneOf(w.provider_id().set_by(), kSetBy, JoinKey(pid, "setBy"), "setBy");
    Dist(w.provider_id().ccm_delay(), JoinKey(pid, "ccmDelay"));
    const proto::ProviderIDFaults& f = w.provider_id().faults();
    const std::string faults = JoinKey(pid, "faults");
    Probability(f.case_mismatch(), JoinKey(faults, "caseMismatch"));
    Probability(f.missing(), JoinKey(faults, "missing"));
    Probability(f.wrong_format(), JoinKey(faults, "wrongFormat"));
    Probability(f.late().probability(), JoinKey(faults, "late.probability"));
    Dist(f.late().delay(), JoinKey(faults, "late.delay"));
  }

  void Pools() {
    const std::string path = "spec.machinePools";
    if (spec_.machine_pools_size() == 0) Add(path, "a scenario needs at least one machine pool");
    if (spec_.machine_pools_size() > kMaxPools) {
      Add(path, "at most " + std::to_string(kMaxPools) + " machine pools are allowed");
    }
    for (int i = 0; i < spec_.machine_pools_size(); ++i) {
      Pool(spec_.machine_pools(i), i, JoinIndex(path, i));
    }
  }

  void Pool(const proto::MachinePoolSpec& p, int index, const std::string& path) {
    const std::string name = JoinKey(path, "name");
    if (p.name().empty()) {
      Add(name, "missing name");
    } else if (!IsDnsLabel(p.name())) {
      const std::string rule =
          "expected a DNS-1123 label (at most 63 lower-case letters, digits and '-', starting "
          "and ending with a letter or digit), got ";
      Add(name, rule + Quote(p.name()));
    }
    if (!p.name().empty() && !pool_index_.emplace(p.name(), index).second) {
      Add(name, "duplicate pool name " + Quote(p.name()) + "; spec.machinePools[" +
                    std::to_string(pool_index_[p.name()]) + "] has it already");
    }
    if (p.replicas() > kMaxReplicas) {
      Add(JoinKey(path, "replicas"), "expected at most " + std::to_string(kMaxReplicas) +
                                         " replicas, got " + std::to_string(p.replicas()));
    }
    Version(p.version(), JoinKey(path, "version"));
    if (p.min_ready_seconds() > kMaxMinReadySeconds) {
      Add(JoinKey(path, "minReadySeconds"), "expected at most 30 days (2592000 seconds)");
    }
    Provider(p, JoinKey(path, "provider"));
  }

  void Version(const std::string& v, const std::string& path) { CheckVersion(v, path, issues_); }

  // The block's own rules come with its provider (models/registry.h).
  void Provider(const proto::MachinePoolSpec& p, const std::string& path) {
    if (const ProviderRegistration* r = FindProvider(p)) {
      return r->validate(p, JoinKey(path, r->block), issues_);
    }
    Add(path, "a pool needs one provider block: " + BlockNames());
  }

  // "asg, vmss, mig or test": the oneof's members in the order the schema declares them.
  static std::string BlockNames() {
    const auto* oneof = proto::MachinePoolSpec::descriptor()->FindOneofByName("provider");
    std::vector<std::string> names;
    for (int i = 0; i < oneof->field_count(); ++i) names.push_back(oneof->field(i)->name());
    return OrList(names);
  }

  const proto::Scenario& sc_;
  const proto::ScenarioSpec& spec_;
  std::vector<Issue>* issues_;
  std::map<std::string, int> pool_index_;  // pool name -> its index in machinePools
};

}  // namespace

void ValidateScenario(const proto::Scenario& sc, std::vector<Issue>* issues) {
  Validator(sc, issues).Run();
  ValidateEvents(sc.spec(), issues);
  ValidateAutoscaling(sc.spec(), issues);
  ValidateExpectations(sc.spec(), issues);
}

void WarnScenario(const proto::Scenario& sc, std::vector<Issue>* warnings) {
  for (int i = 0; i < sc.spec().machine_pools_size(); ++i) {
    const proto::MachinePoolSpec& p = sc.spec().machine_pools(i);
    const ProviderRegistration* r = FindProvider(p);
    if (r == nullptr || r->warn == nullptr) continue;
    const std::string path =
        JoinKey(JoinKey(JoinIndex("spec.machinePools", i), "provider"), r->block);
    r->warn(p, path, warnings);
  }
}

}  // namespace mpsim::scenario
