// Rules of the `mig` block's update-policy keys (the values GCE accepts for an
// InstanceGroupManagerUpdatePolicy, docs/reference/providers.md §3.2).
#include <string>
#include <utility>
#include <vector>

#include "models/mig/mig_validate.h"
#include "sim/scenario_checks.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::mig {

using scenario::AddIssue;
using scenario::CheckOneOf;
using scenario::Issue;
using scenario::JoinKey;
using scenario::OrList;
using scenario::Quote;

namespace {

// A count ("2") or a percent ("25%", at most 100%). Returns false after
// appending an issue when `v` is neither.
bool CheckFixedOrPercent(const std::string& v, const std::string& path, int32_t replicas,
                         std::vector<Issue>* issues) {
  const bool pct = !v.empty() && v.back() == '%';
  const std::string digits = pct ? v.substr(0, v.size() - 1) : v;
  if (digits.empty() || digits.size() > 6 ||
      digits.find_first_not_of("0123456789") != std::string::npos ||
      (pct && std::stoi(digits) > 100)) {
    AddIssue(issues, path, "expected a count or a percentage from 0% to 100%, got \"" + v + "\"");
    return false;
  }
  // "percent only for groups >= 10 instances" (docs/reference/providers.md §3.2).
  if (pct && replicas < 10) {
    AddIssue(issues, path,
             "a percentage needs a group of at least 10 instances, but the pool has " +
                 std::to_string(replicas) + " replicas; give a count");
    return false;
  }
  return true;
}

bool IsZero(const std::string& v) { return v.find_first_not_of("0%") == std::string::npos; }

}  // namespace

void ValidateMigUpdatePolicy(const proto::MigProvider& m, int32_t replicas, const std::string& path,
                             std::vector<Issue>* issues) {
  const std::string surge_path = JoinKey(path, "updateMaxSurge");
  const std::string unavailable_path = JoinKey(path, "updateMaxUnavailable");
  const bool surge_ok = CheckFixedOrPercent(m.update_max_surge(), surge_path, replicas, issues);
  const bool unavailable_ok =
      CheckFixedOrPercent(m.update_max_unavailable(), unavailable_path, replicas, issues);
  CheckOneOf(m.update_minimal_action(), {"REFRESH", "RESTART", "REPLACE"},
             JoinKey(path, "updateMinimalAction"), "minimal action", issues);
  CheckOneOf(m.update_replacement_method(), {"SUBSTITUTE", "RECREATE"},
             JoinKey(path, "updateReplacementMethod"), "replacement method", issues);
  if (!surge_ok || !unavailable_ok) return;
  const bool in_place =
      m.update_minimal_action() != "REPLACE" || m.update_replacement_method() == "RECREATE";
  if (IsZero(m.update_max_surge()) && IsZero(m.update_max_unavailable())) {
    AddIssue(issues, surge_path, "expected updateMaxSurge or updateMaxUnavailable above 0");
  } else if (in_place && IsZero(m.update_max_unavailable())) {
    // RECREATE "requires maxUnavailable > 0" (§3.2); REFRESH and RESTART take
    // the VM out of service in mpsim's model, so they need it too.
    AddIssue(
        issues, unavailable_path,
        "expected above 0: updateReplacementMethod RECREATE and updateMinimalAction REFRESH or "
        "RESTART update VMs in place, without surge");
  }
}

}  // namespace mpsim::mig
