// machine_controller_status.go (docs/reference/capi-core.md §4.1).
#include "controller/machine_status.h"

#include <algorithm>
#include <set>
#include <vector>

#include "controller/capi_names.h"

namespace mpsim {
namespace {

void Set(Machine* m, const char* type, const std::string& status, const std::string& reason,
         const std::string& message, Time now) {
  SetCondition(&m->status.conditions,
               {.type = type, .status = status, .reason = reason, .message = message}, now);
}

// setNodeConditions: NodeReady and NodeHealthy alike.
void SetNodeConditions(Machine* m, const std::string& status, const std::string& reason,
                       const std::string& message, Time now) {
  Set(m, capi::kMachineNodeReadyCondition, status, reason, message, now);
  Set(m, capi::kMachineNodeHealthyCondition, status, reason, message, now);
}

bool HasNodeConditions(const Machine& m) {
  return FindCondition(m.status.conditions, capi::kMachineNodeReadyCondition) != nullptr &&
         FindCondition(m.status.conditions, capi::kMachineNodeHealthyCondition) != nullptr;
}

// The last condition of a type, as summarizeNodeConditions' loop keeps it.
const Condition* LastOfType(const Conditions& cs, const std::string& type) {
  const Condition* found = nullptr;
  for (const Condition& c : cs) {
    if (c.type == type) found = &c;
  }
  return found;
}

// The Node's Ready condition as the Machine's NodeReady.
void SetNodeReady(Machine* m, const Node& node, Time now) {
  const Condition* ready = LastOfType(node.status.conditions, capi::kNodeReady);
  if (ready == nullptr) {
    Set(m, capi::kMachineNodeReadyCondition, "Unknown", capi::kMachineNodeReadyUnknownReason,
        "* Node.Ready: Condition not yet reported", now);
    return;
  }
  std::string message;
  if (ready->status != "True" && !ready->message.empty()) {
    message = "* Node.Ready: " + ready->message;
  }
  const char* reason = ready->status == "True"    ? capi::kMachineNodeReadyReason
                       : ready->status == "False" ? capi::kMachineNodeNotReadyReason
                                                  : capi::kMachineNodeReadyUnknownReason;
  // meta.SetStatusCondition with the Node's transition time: kept while the
  // status stays, the Node's when it changes.
  const Condition* before = FindCondition(m->status.conditions, capi::kMachineNodeReadyCondition);
  const Time since = before != nullptr && before->status == ready->status
                         ? before->last_transition_time
                         : ready->last_transition_time;
  Set(m, capi::kMachineNodeReadyCondition, ready->status, reason, message, now);
  for (Condition& c : m->status.conditions) {
    if (c.type == capi::kMachineNodeReadyCondition) c.last_transition_time = since;
  }
}

// Merge priority of a condition in the Ready summary (conditions'
// GetDefaultMergePriorityFunc and the Machine's custom strategy): 0 issue,
// 1 unknown, 2 info.
int Priority(const Machine& m, const Condition& c, bool negative) {
  if (m.meta.deletion_timestamp) {
    const bool gone = (c.type == capi::kMachineBootstrapConfigReadyCondition ||
                       c.type == capi::kMachineInfrastructureReadyCondition)
                          ? (c.reason == capi::kObjectDeletedReason ||
                             c.reason == capi::kObjectDoesNotExistReason)
                      : c.type == capi::kMachineNodeHealthyCondition
                          ? (c.reason == capi::kMachineNodeDeletedReason ||
                             c.reason == capi::kMachineNodeDoesNotExistReason)
                          : false;
    if (gone) return 2;
  }
  if (c.status == "Unknown") return 1;
  const bool good = negative ? c.status == "False" : c.status == "True";
  return good ? 2 : 0;
}

}  // namespace

void SetBootstrapReadyCondition(Machine* m, Time now) {
  Set(m, capi::kMachineBootstrapConfigReadyCondition, "True",
      capi::kMachineBootstrapDataSecretProvidedReason, "", now);
}

void SetInfrastructureReadyCondition(const MachineScope& s, Time now) {
  Machine* m = s.machine;
  const bool provisioned = m->status.infrastructure_provisioned.value_or(false);
  const std::string& kind = m->spec.infrastructure_ref.kind;
  if (s.infra_machine) {
    Set(m, capi::kMachineInfrastructureReadyCondition, provisioned ? "True" : "False",
        provisioned ? capi::kReadyReason : capi::kNotReadyReason,
        provisioned ? "" : kind + " status.initialization.provisioned is false", now);
    return;
  }
  if (!s.infra_machine_is_not_found) {
    Set(m, capi::kMachineInfrastructureReadyCondition, "Unknown", "InternalError",
        "Please check controller logs for errors", now);
    return;
  }
  if (provisioned) {
    const std::string when = m->meta.deletion_timestamp ? "" : " while the Machine still exists";
    Set(m, capi::kMachineInfrastructureReadyCondition, "False", capi::kObjectDeletedReason,
        kind + " has been deleted" + when, now);
    return;
  }
  Set(m, capi::kMachineInfrastructureReadyCondition, "False", capi::kObjectDoesNotExistReason,
      kind + " does not exist", now);
}

// The branches on the Cluster's infrastructure and on the probes' grace
// period are not modelled: the simulated Cluster is provisioned, and a
// connection either answers or fails.
void SetNodeHealthyAndReadyConditions(const MachineScope& s, Time now) {
  Machine* m = s.machine;
  if (!IsConditionTrue(s.cluster.status.conditions, capi::kControlPlaneInitializedCondition)) {
    SetNodeConditions(m, "Unknown", capi::kInspectionFailedReason,
                      "Waiting for Cluster control plane to be initialized", now);
    return;
  }
  if (!s.node_get_error.ok()) {
    // ErrClusterNotConnected keeps what was reported before.
    if (s.node_get_error.code() == Status::Code::kUnavailable) {
      if (!HasNodeConditions(*m)) {
        SetNodeConditions(m, "Unknown", capi::kConnectionDownReason,
                          "Remote connection not established yet", now);
      }
      return;
    }
    SetNodeConditions(m, "Unknown", "InternalError", "Please check controller logs for errors",
                      now);
    return;
  }
  if (s.node) {
    SetNodeReady(m, *s.node, now);
    const NodeHealth h = SummarizeNodeConditions(*s.node);
    Set(m, capi::kMachineNodeHealthyCondition, h.status, h.reason, h.message, now);
    return;
  }
  const bool has_ref = m->status.node_ref.has_value();
  if (m->meta.deletion_timestamp) {
    if (has_ref) {
      SetNodeConditions(m, "False", capi::kMachineNodeDeletedReason,
                        "Node " + m->status.node_ref->name.str() + " has been deleted", now);
    } else {
      SetNodeConditions(m, "Unknown", capi::kMachineNodeDoesNotExistReason, "Node does not exist",
                        now);
    }
    return;
  }
  if (has_ref) {
    SetNodeConditions(m, "False", capi::kMachineNodeDeletedReason,
                      "Node " + m->status.node_ref->name.str() +
                          " has been deleted while the Machine still exists",
                      now);
    return;
  }
  if (m->spec.provider_id && !m->spec.provider_id->empty()) {
    SetNodeConditions(
        m, "Unknown", capi::kInspectionFailedReason,
        "Waiting for a Node with spec.providerID " + m->spec.provider_id->str() + " to exist", now);
    return;
  }
  SetNodeConditions(m, "Unknown", capi::kInspectionFailedReason,
                    "Waiting for " + m->spec.infrastructure_ref.kind + " to report spec.providerID",
                    now);
}

NodeHealth SummarizeNodeConditions(const Node& node) {
  int semantically_false = 0, unknown = 0, count = 0;
  std::set<std::string> distinct;
  std::vector<std::string> messages;
  for (const char* type : {capi::kNodeReady, capi::kNodeMemoryPressure, capi::kNodeDiskPressure,
                           capi::kNodePIDPressure}) {
    const Condition* c = LastOfType(node.status.conditions, type);
    if (c == nullptr) {
      messages.push_back(std::string("* Node.") + type + ": Condition not yet reported");
      ++unknown;
      continue;
    }
    // Ready is healthy when True; a pressure condition when False.
    const bool healthy = c->type == capi::kNodeReady ? c->status == "True" : c->status == "False";
    if (healthy) continue;
    const std::string m = c->message.empty() ? "Condition is " + c->status : c->message;
    ++count;
    distinct.insert(m);
    messages.push_back(std::string("* Node.") + type + ": " + m);
    if (c->status == "Unknown") {
      ++unknown;
    } else {
      ++semantically_false;
    }
  }
  if (count > 1 && distinct.size() == 1) messages = {"* Node.AllConditions: " + *distinct.begin()};
  std::string message;
  for (size_t i = 0; i < messages.size(); ++i) message += (i ? "\n" : "") + messages[i];
  if (semantically_false > 0) return {"False", capi::kMachineNodeNotHealthyReason, message};
  if (unknown > 0) return {"Unknown", capi::kMachineNodeHealthUnknownReason, message};
  return {"True", capi::kMachineNodeHealthyReason, ""};
}

void SetDeletingCondition(Machine* m, const std::string& reason, const std::string& message,
                          Time now) {
  if (!m->meta.deletion_timestamp) {
    Set(m, capi::kMachineDeletingCondition, "False", capi::kNotDeletingReason, "", now);
    return;
  }
  Set(m, capi::kMachineDeletingCondition, "True", reason, message, now);
}

void SetUpdatingCondition(Machine* m, Time now) {
  Set(m, capi::kMachineUpdatingCondition, "False", capi::kMachineNotUpdatingReason, "", now);
}

// The summary's messages are not modelled; its status and reason are.
void SetReadyCondition(Machine* m, Time now) {
  struct Gate {
    const char* type;
    bool negative;
    bool ignore_if_missing;
  };
  static constexpr Gate kGates[] = {
      {capi::kMachineDeletingCondition, true, false},
      {capi::kMachineUpdatingCondition, true, false},
      {capi::kMachineBootstrapConfigReadyCondition, false, false},
      {capi::kMachineInfrastructureReadyCondition, false, false},
      {capi::kMachineNodeHealthyCondition, false, false},
      {"HealthCheckSucceeded", false, true},
  };
  int worst = 2;
  for (const Gate& g : kGates) {
    const Condition* c = FindCondition(m->status.conditions, g.type);
    if (c == nullptr) {
      if (!g.ignore_if_missing) worst = std::min(worst, 1);  // "Condition not yet reported"
      continue;
    }
    worst = std::min(worst, Priority(*m, *c, g.negative));
  }
  static const char* const kStatus[] = {"False", "Unknown", "True"};
  static const char* const kReason[] = {capi::kNotReadyReason, capi::kReadyUnknownReason,
                                        capi::kReadyReason};
  Set(m, capi::kMachineReadyCondition, kStatus[worst], kReason[worst], "", now);
}

Duration SetAvailableCondition(Machine* m, Time now) {
  const Condition* ready = FindCondition(m->status.conditions, capi::kMachineReadyCondition);
  if (ready == nullptr || ready->status != "True") {
    Set(m, capi::kMachineAvailableCondition, "False", capi::kNotReadyReason, "", now);
    return 0;
  }
  const Duration left =
      ready->last_transition_time + m->spec.min_ready_seconds.value_or(0) * kSecond - now;
  if (left <= 0) {
    Set(m, capi::kMachineAvailableCondition, "True", capi::kAvailableReason, "", now);
    return 0;
  }
  Set(m, capi::kMachineAvailableCondition, "False", capi::kMachineWaitingForMinReadySecondsReason,
      "", now);
  return left;
}

Duration UpdateMachineStatus(MachineScope* s, Time now) {
  Machine* m = s->machine;
  SetBootstrapReadyCondition(m, now);
  SetInfrastructureReadyCondition(*s, now);
  SetNodeHealthyAndReadyConditions(*s, now);
  SetDeletingCondition(m, s->deleting_reason, s->deleting_message, now);
  SetUpdatingCondition(m, now);
  SetReadyCondition(m, now);
  return SetAvailableCondition(m, now);
}

}  // namespace mpsim
