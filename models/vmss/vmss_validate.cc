// Rules of the `vmss` block: the shared keys, the scale set's own, and CAPZ's
// version, resource group, orchestration mode and terminate notification keys
// (the values CAPZ and Azure accept).
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "api/time.h"
#include "models/vmss/vmss_schema.h"
#include "sim/duration.h"
#include "sim/scenario_checks.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::vmss {

using scenario::AddIssue;
using scenario::CheckOneOf;
using scenario::Issue;
using scenario::JoinKey;
using scenario::Quote;

namespace {

// Azure's resource-group names: 1 to 90 letters, digits, '_', '-', '.', '('
// and ')', not ending with '.' (ASCII only here).
bool IsResourceGroup(const std::string& s) {
  static const std::regex name("[A-Za-z0-9_().-]*[A-Za-z0-9_()-]");
  return s.size() <= 90 && std::regex_match(s, name);
}

// An integer ("1") or a percentage from 0% to 100% ("25%"), as intstr.
void CheckIntOrPercent(const std::string& v, const std::string& path, std::vector<Issue>* issues) {
  const bool pct = !v.empty() && v.back() == '%';
  const std::string digits = pct ? v.substr(0, v.size() - 1) : v;
  const bool ok = !digits.empty() && digits.size() <= 6 &&
                  digits.find_first_not_of("0123456789") == std::string::npos &&
                  (!pct || std::stoi(digits) <= 100);
  if (!ok) {
    AddIssue(issues, path, "expected an integer or a percentage from 0% to 100%, got " + Quote(v));
  }
}

void ScaleSetKeys(const proto::VmssProvider& v, const std::string& path,
                  std::vector<Issue>* issues) {
  auto dist = [&](const proto::Distribution& d, const char* key) {
    scenario::ValidateDistribution(d, JoinKey(path, key), issues);
  };
  dist(v.operation_delay(), "operationDelay");
  dist(v.allocation_failure_delay(), "allocationFailureDelay");
  scenario::CheckProbability(v.allocation_failed_probability(),
                             JoinKey(path, "allocationFailedProbability"), issues);
  CheckOneOf(v.failed_behavior(), {"HEAD", "v1.26.0"}, JoinKey(path, "failedBehavior"),
             "failed behaviour", issues);
  CheckIntOrPercent(v.max_surge(), JoinKey(path, "maxSurge"), issues);
  CheckIntOrPercent(v.max_unavailable(), JoinKey(path, "maxUnavailable"), issues);
  CheckOneOf(v.delete_policy(), {"Oldest", "Newest", "Random"}, JoinKey(path, "deletePolicy"),
             "delete policy", issues);
  if (v.arm_read_burst() < 1)
    AddIssue(issues, JoinKey(path, "armReadBurst"), "expected at least 1 token");
  if (v.arm_write_burst() < 1)
    AddIssue(issues, JoinKey(path, "armWriteBurst"), "expected at least 1 token");
  if (!(v.arm_reads_per_second() > 0)) {
    AddIssue(issues, JoinKey(path, "armReadsPerSecond"), "expected a refill rate above 0");
  }
  if (!(v.arm_writes_per_second() > 0)) {
    AddIssue(issues, JoinKey(path, "armWritesPerSecond"), "expected a refill rate above 0");
  }
  if (v.drain_time() < 0)
    AddIssue(issues, JoinKey(path, "drainTime"), "expected a duration of 0s or more");
}

void VersionsAndIds(const proto::VmssProvider& v, const std::string& path,
                    std::vector<Issue>* issues) {
  CheckOneOf(v.delete_selection(), {"head", "v1.26.0"}, JoinKey(path, "deleteSelection"),
             "delete selection", issues);
  if (!IsResourceGroup(v.resource_group())) {
    AddIssue(
        issues, JoinKey(path, "resourceGroup"),
        "expected 1 to 90 letters, digits, '_', '-', '.', '(' or ')', not ending with '.'; got " +
            Quote(v.resource_group()));
  }
  CheckOneOf(v.node_resource_group_case(), {"lowercase", "original"},
             JoinKey(path, "nodeResourceGroupCase"), "resource-group case", issues);
  CheckOneOf(v.orchestration_mode(), {"Uniform", "Flexible"}, JoinKey(path, "orchestrationMode"),
             "orchestration mode", issues);
  // The terminate notification's timeout is 5 to 15 minutes (docs/reference/providers.md
  // §2.4, §4.2).
  const Duration t = v.terminate_notification_timeout();
  if (t != 0 && (t < 5 * kMinute || t > 15 * kMinute)) {
    AddIssue(issues, JoinKey(path, "terminateNotificationTimeout"),
             "expected a duration from 5m to 15m, or 0s for no terminate notification; got " +
                 FormatDuration(t));
  }
}

}  // namespace

void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues) {
  const proto::VmssProvider& v = pool.vmss();
  scenario::ValidateSharedKeys(v, path, issues);
  ScaleSetKeys(v, path, issues);
  VersionsAndIds(v, path, issues);
}

}  // namespace mpsim::vmss
