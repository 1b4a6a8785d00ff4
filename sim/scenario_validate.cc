#include "sim/scenario_validate.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <regex>
#include <set>

#include "sim/duration.h"
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

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
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

  void Probability(double p, const std::string& path) {
    if (p < 0 || p > 1) Add(path, "expected a probability between 0 and 1, got " + Number(p));
  }

  // A zero budget would stop every run before its first event.
  void Limits(const proto::Limits& l, const std::string& path) {
    const char* kAtLeastOne = "expected at least 1";
    if (l.max_events() == 0) Add(JoinKey(path, "maxEvents"), kAtLeastOne);
    if (l.max_memory_mib() == 0) Add(JoinKey(path, "maxMemoryMiB"), kAtLeastOne);
    if (l.max_events_per_instant() == 0) Add(JoinKey(path, "maxEventsPerInstant"), kAtLeastOne);
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

  void Provider(const proto::MachinePoolSpec& p, const std::string& path) {
    switch (p.provider_case()) {
      case proto::MachinePoolSpec::kAsg:
        Cloud(p.asg(), JoinKey(path, "asg"));
        return Asg(p.asg(), JoinKey(path, "asg"));
      case proto::MachinePoolSpec::kVmss:
        Cloud(p.vmss(), JoinKey(path, "vmss"));
        return Vmss(p.vmss(), JoinKey(path, "vmss"));
      case proto::MachinePoolSpec::kMig:
        Cloud(p.mig(), JoinKey(path, "mig"));
        return Mig(p.mig(), p.replicas(), JoinKey(path, "mig"));
      case proto::MachinePoolSpec::kTest:
        return Test(p.test(), JoinKey(path, "test"));
      case proto::MachinePoolSpec::PROVIDER_NOT_SET:
        break;
    }
    Add(path, "a pool needs one provider block: asg, vmss, mig or test");
  }

  template <class CloudSpec>
  void Cloud(const CloudSpec& c, const std::string& path) {
    const std::string zones_path = JoinKey(path, "zones");
    if (c.zones_size() == 0) Add(zones_path, "list at least one zone");
    std::vector<std::string> zones;
    for (int i = 0; i < c.zones_size(); ++i) {
      const std::string& z = c.zones(i);
      if (z.empty()) Add(JoinIndex(zones_path, i), "a zone name cannot be empty");
      if (std::find(zones.begin(), zones.end(), z) != zones.end()) {
        Add(JoinIndex(zones_path, i), "zone " + Quote(z) + " listed twice");
      }
      zones.push_back(z);
    }
    // Sorted, so that errors come out in the same order on every run.
    const std::map<std::string, int32_t> capacity(c.capacity().begin(), c.capacity().end());
    for (const auto& [zone, n] : capacity) {
      const std::string item = JoinKey(JoinKey(path, "capacity"), zone);
      if (std::find(zones.begin(), zones.end(), zone) == zones.end()) {
        Add(item, "capacity names zone " + Quote(zone) + ", which is not in zones" +
                      DidYouMean(zone, zones));
      }
      if (n > kMaxZoneCapacity) {
        Add(item, "expected at most " + std::to_string(kMaxZoneCapacity) + " instances");
      }
    }
    Dist(c.launch_delay(), JoinKey(path, "launchDelay"));
    Dist(c.delete_delay(), JoinKey(path, "deleteDelay"));
  }

  void Asg(const proto::AsgProvider& a, const std::string& path) {
    Dist(a.reaction_delay(), JoinKey(path, "reactionDelay"));
    Dist(a.launch_retry(), JoinKey(path, "launchRetry"));
    Probability(a.ice_probability(), JoinKey(path, "iceProbability"));
    Probability(a.missing_az(), JoinKey(path, "missingAZ"));
    Probability(a.reorder_probability(), JoinKey(path, "reorderProbability"));
    if (a.min_healthy_percentage() > 100) {
      Add(JoinKey(path, "minHealthyPercentage"), "expected a percentage from 0 to 100");
    }
    ValidateAsgHooksAndLimits(a, path, issues_);
  }

  void Mig(const proto::MigProvider& m, int32_t replicas, const std::string& path) {
    Dist(m.reaction_delay(), JoinKey(path, "reactionDelay"));
    Dist(m.stockout_retry(), JoinKey(path, "stockoutRetry"));
    Probability(m.stockout_probability(), JoinKey(path, "stockoutProbability"));
    Probability(m.malformed_url_probability(), JoinKey(path, "malformedUrlProbability"));
    Probability(m.preemption_probability(), JoinKey(path, "preemptionProbability"));
    if (m.staging_fraction() < 0 || m.staging_fraction() >= 1) {
      Add(JoinKey(path, "stagingFraction"),
          "expected a fraction of the launch delay from 0 up to (not including) 1, got " +
              Number(m.staging_fraction()));
    }
    if (m.has_autohealing_initial_delay()) {
      Dist(m.autohealing_initial_delay(), JoinKey(path, "autohealingInitialDelay"));
    }
    if (m.preemption_probability() == 1) {
      Add(JoinKey(path, "preemptionProbability"),
          "expected below 1: a VM preempted within every hour for sure has no finite rate");
    }
    OneOf(m.update_policy(), {"OPPORTUNISTIC", "PROACTIVE"}, JoinKey(path, "updatePolicy"),
          "update policy");
    if (m.api_requests_per_minute() == 0) {
      Add(JoinKey(path, "apiRequestsPerMinute"), "expected at least 1 request per minute");
    }
    if (m.project().empty()) Add(JoinKey(path, "project"), "the project cannot be empty");
    Dist(m.node_pool_operation_delay(), JoinKey(path, "nodePoolOperationDelay"));
    // GKE refuses upgrade settings that upgrade nothing at once (providers.md §3.2).
    const auto& u = m.upgrade_settings();
    if (u.max_surge() + static_cast<int64_t>(u.max_unavailable()) == 0) {
      Add(JoinKey(path, "upgradeSettings"), "expected maxSurge or maxUnavailable above 0");
    }
    ValidateGkeKeys(m, path, issues_);
    ValidateMigUpdatePolicy(m, replicas, path, issues_);
  }

  void Vmss(const proto::VmssProvider& v, const std::string& path) {
    Dist(v.operation_delay(), JoinKey(path, "operationDelay"));
    Dist(v.allocation_failure_delay(), JoinKey(path, "allocationFailureDelay"));
    Probability(v.allocation_failed_probability(), JoinKey(path, "allocationFailedProbability"));
    OneOf(v.failed_behavior(), {"HEAD", "v1.26.0"}, JoinKey(path, "failedBehavior"),
          "failed behaviour");
    IntOrPercent(v.max_surge(), JoinKey(path, "maxSurge"));
    IntOrPercent(v.max_unavailable(), JoinKey(path, "maxUnavailable"));
    OneOf(v.delete_policy(), {"Oldest", "Newest", "Random"}, JoinKey(path, "deletePolicy"),
          "delete policy");
    if (v.arm_read_burst() < 1) Add(JoinKey(path, "armReadBurst"), "expected at least 1 token");
    if (v.arm_write_burst() < 1) Add(JoinKey(path, "armWriteBurst"), "expected at least 1 token");
    if (!(v.arm_reads_per_second() > 0)) {
      Add(JoinKey(path, "armReadsPerSecond"), "expected a refill rate above 0");
    }
    if (!(v.arm_writes_per_second() > 0)) {
      Add(JoinKey(path, "armWritesPerSecond"), "expected a refill rate above 0");
    }
    if (v.drain_time() < 0) Add(JoinKey(path, "drainTime"), "expected a duration of 0s or more");
    ValidateVmssVersionsAndIds(v, path, issues_);
  }

  // An integer ("1") or a percentage from 0% to 100% ("25%"), as intstr.
  void IntOrPercent(const std::string& v, const std::string& path) {
    const bool pct = !v.empty() && v.back() == '%';
    const std::string digits = pct ? v.substr(0, v.size() - 1) : v;
    const bool ok = !digits.empty() && digits.size() <= 6 &&
                    digits.find_first_not_of("0123456789") == std::string::npos &&
                    (!pct || std::stoi(digits) <= 100);
    if (!ok) Add(path, "expected an integer or a percentage from 0% to 100%, got " + Quote(v));
  }

  void Test(const proto::TestProvider& t, const std::string& path) {
    Dist(t.launch_delay(), JoinKey(path, "launchDelay"));
    Dist(t.delete_delay(), JoinKey(path, "deleteDelay"));
    if (t.provider_id_prefix().empty()) {
      Add(JoinKey(path, "providerIDPrefix"), "the providerID prefix cannot be empty");
    }
    static const std::vector<std::string> kReadyWhen = {"created", "allRunning"};
    CheckOneOf(t.ready_when(), kReadyWhen, JoinKey(path, "readyWhen"), "readyWhen", issues_);
  }

  const proto::Scenario& sc_;
  const proto::ScenarioSpec& spec_;
  std::vector<Issue>* issues_;
  std::map<std::string, int> pool_index_;  // pool name -> its index in machinePools
};

}  // namespace

std::string OrList(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    out += words[i];
  }
  return out;
}

void CheckOneOf(const std::string& value, const std::vector<std::string>& allowed,
                const std::string& path, const std::string& what, std::vector<Issue>* issues) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  issues->push_back({path, "unknown " + what + " " + Quote(value) + "; expected " +
                               OrList(allowed) + DidYouMean(value, allowed)});
}

void AddIssue(std::vector<Issue>* issues, const std::string& path, std::string message) {
  issues->push_back({path, std::move(message), ""});
}

void CheckVersion(const std::string& version, const std::string& path, std::vector<Issue>* issues) {
  // Cluster API wants a v-prefixed semantic version.
  static const std::regex pattern(
      R"(v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)([-+][0-9A-Za-z.+-]+)?)");
  if (std::regex_match(version, pattern)) return;
  issues->push_back({path, "expected a Kubernetes version such as v1.30.0, got " + Quote(version)});
}

void ValidateScenario(const proto::Scenario& sc, std::vector<Issue>* issues) {
  Validator(sc, issues).Run();
  ValidateEvents(sc.spec(), issues);
  ValidateExpectations(sc.spec(), issues);
}

}  // namespace mpsim::scenario
