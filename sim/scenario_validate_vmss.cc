// Rules of the `vmss` block's CAPZ version, resource group, orchestration
// mode and terminate notification keys (the values CAPZ and Azure accept).
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "api/time.h"
#include "sim/duration.h"
#include "sim/scenario_validate.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::scenario {
namespace {

// Azure's resource-group names: 1 to 90 letters, digits, '_', '-', '.', '('
// and ')', not ending with '.' (ASCII only here).
bool IsResourceGroup(const std::string& s) {
  static const std::regex name("[A-Za-z0-9_().-]*[A-Za-z0-9_()-]");
  return s.size() <= 90 && std::regex_match(s, name);
}

}  // namespace

void ValidateVmssVersionsAndIds(const proto::VmssProvider& v, const std::string& path,
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
  // The terminate notification's timeout is 5 to 15 minutes (providers.md
  // §2.4, §4.2).
  const Duration t = v.terminate_notification_timeout();
  if (t != 0 && (t < 5 * kMinute || t > 15 * kMinute)) {
    AddIssue(issues, JoinKey(path, "terminateNotificationTimeout"),
             "expected a duration from 5m to 15m, or 0s for no terminate notification; got " +
                 FormatDuration(t));
  }
}

}  // namespace mpsim::scenario
