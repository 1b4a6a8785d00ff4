#include "app/report/path_words.h"

#include <algorithm>
#include <map>
#include <utility>

#include "models/registry.h"
#include "sim/duration.h"

namespace mpsim {
namespace {

using K = MomentKind;

// A reconcile that started this much after its input changed was not woken by
// that change's watch event (informer lag is milliseconds).
constexpr Duration kNoticeable = kSecond;
// Cluster API's 1 s rate limit may hold a due requeue back a little.
constexpr Duration kRequeueSlack = 2 * kSecond;

std::string Quoted(const std::string& object) { return object.empty() ? "?" : object; }

// "10 m" for a duration whose text is one number and one unit, else its text.
std::string SpacedDuration(Duration d) {
  const std::string text = FormatDuration(d);
  const size_t unit = text.find_first_not_of("0123456789.");
  if (unit == 0 || unit == std::string::npos) return text;
  if (text.find_first_of("0123456789", unit) != std::string::npos) return text;
  return text.substr(0, unit) + " " + text.substr(unit);
}

// Why a controller acted at `at` although its input was there at `since`:
// "" when it acted at once, else "requeue" / "error" / "resync" / "lag".
std::string Delay(const std::vector<ReconcileSpan>& spans, Time since, Time at,
                  std::string* detail) {
  if (at - since < kNoticeable) return "";
  auto r = std::upper_bound(spans.begin(), spans.end(), at,
                            [](Time t, const ReconcileSpan& s) { return t < s.start; });
  if (r == spans.begin()) return "lag";
  const ReconcileSpan& ran = *(r - 1);
  if (ran.start < since) return "lag";  // the action came from no reconcile we can see
  // Only the resync woke it, and no reconcile ran since the input was there.
  if (ran.resync > 0 && ((r - 1) == spans.begin() || (r - 2)->start < since)) {
    *detail = SpacedDuration(ran.resync);
    return "resync";
  }
  if ((r - 1) == spans.begin()) return "lag";
  const ReconcileSpan& before = *(r - 2);
  const std::string kRequeue = "requeueAfter ";
  Duration d = 0;
  std::string err;
  if (before.outcome.rfind(kRequeue, 0) == 0 &&
      ParseDuration(before.outcome.substr(kRequeue.size()), &d, &err) &&
      ran.start >= before.end + d && ran.start <= before.end + d + kRequeueSlack) {
    *detail = FormatDuration(d);
    return "requeue";
  }
  if (before.outcome.rfind("error", 0) == 0) {
    *detail = before.outcome;
    return "error";
  }
  return "lag";
}

// A controller's step: its action, and the wait before it when there was one.
StepWords ControllerStep(const std::vector<ReconcileSpan>& spans, const std::string& controller,
                         const Moment& cause, const Moment& effect, const std::string& kind,
                         const std::string& action, const std::string& after) {
  std::string detail;
  const std::string why = Delay(spans, cause.time, effect.time, &detail);
  const std::string title = "the " + ControllerTitle(controller) + " controller";
  if (why == "requeue") {
    return {"requeue", "waiting for the " + detail + " requeue of " + title + after +
                           ", which then did: " + action};
  }
  if (why == "resync") {
    const ControllerWords* words = FindControllerWords(controller);
    const std::string issues =
        words == nullptr || words->resync_stall.empty() ? "" : " (" + words->resync_stall + ")";
    return {"resync", "no event or requeue woke " + title + " until its " + detail + " resync" +
                          issues + ", which then did: " + action + after};
  }
  if (why == "error") {
    return {"error-backoff", "waiting out the error backoff of " + title + " (" + detail + ")" +
                                 after + ", which then did: " + action};
  }
  std::string what = title + " " + action + after;
  if (why == "lag")
    what += " (not sooner: watch event, informer lag, work queue and its rate limit)";
  return {kind, what};
}

// "meanwhile: InsufficientInstanceCapacity 3 times (us-east-1b 3)" for the
// faults and cloud errors during a wait, or "". Another instance's kill or
// providerID fault is no reason for this one's wait.
std::string Meanwhile(const CausalGraph& g, Time from, Time to, const std::string& object) {
  std::map<std::string, std::map<std::string, int>> by_kind;  // kind -> object -> count
  for (const Moment* m : g.FaultsBetween(from, to)) {
    const bool other = m->detail() == "instance.killed" || m->detail().rfind("providerID.", 0) == 0;
    if (m->object() == object || !other) ++by_kind[m->detail()][m->object()];
  }
  std::string out;
  for (const auto& [kind, objects] : by_kind) {
    int total = 0;
    std::string where;
    for (const auto& [o, n] : objects) {
      total += n;
      where += (where.empty() ? "" : ", ") + o + " " + std::to_string(n);
    }
    if (objects.size() > 3) where = std::to_string(objects.size()) + " instances or zones";
    out += (out.empty() ? " (meanwhile: " : "; ") + kind + " " + std::to_string(total) +
           (total == 1 ? " time" : " times") + " on " + where;
  }
  return out.empty() ? out : out + ")";
}

std::string After(const Moment& cause) {
  switch (cause.kind) {
    case K::kListed:
      return " after providerIDList was set";
    case K::kProviderIdSet:
      return " after Node " + cause.object() + " got its providerID";
    case K::kNodeReady:
      return " after Node " + cause.object() + " became Ready";
    case K::kRunning:
      return " after instance " + cause.object() + " was running";
    case K::kGone:
      return " after instance " + cause.object() + " was deleted";
    case K::kNodeDeleted:
      return " after Node " + cause.object() + " was deleted";
    case K::kUnlisted:
      return " after providerIDList dropped " + cause.object();
    default:
      return "";
  }
}

StepWords CloudStep(const CausalGraph& g, const ControllerLog& log, const Moment& c,
                    const Moment& e) {
  const std::string x = Quoted(e.object());
  const std::string infra = "the " + ControllerTitle(log.infra) + " controller";
  const std::string meanwhile = Meanwhile(g, c.time, e.time, e.object());
  const bool retry = c.kind == K::kFault && c.object() == e.object();
  if (retry && (e.kind == K::kFault || e.kind == K::kCreated)) {
    return {"capacity", "the cloud retrying instance " + x + " after " + c.detail()};
  }
  switch (e.kind) {
    case K::kRequested:
      if ((c.kind == K::kDeleting || c.kind == K::kGone) && c.object() != e.object()) {
        return {"replace", infra + " and the cloud requesting instance " + x + " to replace " +
                               c.object() + meanwhile};
      }
      return {"request", infra + " and the cloud requesting instance " + x + meanwhile};
    case K::kCreated:
      if (c.kind == K::kRequested) {
        return {"capacity", "the cloud finding capacity for instance " + x + meanwhile};
      }
      if ((c.kind == K::kDeleting || c.kind == K::kGone) && c.object() != e.object()) {
        return {"replace", infra + " and the cloud creating instance " + x + " to replace " +
                               c.object() + meanwhile};
      }
      return {"create", infra + " and the cloud creating instance " + x + " (" + e.detail() + ")" +
                            meanwhile};
    case K::kRunning:
      return {"launch", "the cloud launching instance " + x + " (" + e.detail() + ")" + meanwhile};
    case K::kFailed:
      return {"failed", "the cloud failing instance " + x + " (" + e.detail() + ")" + meanwhile};
    case K::kDeleting:
      if (c.kind == K::kRunning && c.object() != e.object()) {
        return {"rolling", infra + " and the cloud starting to delete instance " + x +
                               " once instance " + c.object() + " was running (" + e.detail() +
                               ")"};
      }
      return {"delete-start",
              infra + " and the cloud starting to delete instance " + x + " (" + e.detail() + ")"};
    case K::kGone:
      return {"delete", "the cloud deleting instance " + x + " (" + e.detail() + ")"};
    case K::kFault:
      return {"fault", "until " + e.detail() + " on " + x + " (a fault or cloud error)"};
    default:
      return {"other", x};
  }
}

StepWords NodeStep(const Moment& e) {
  const std::string x = Quoted(e.object());
  switch (e.kind) {
    case K::kRegistered:
      return {"register", "instance " + x + " booting and its kubelet registering Node " + x};
    case K::kProviderIdSet:
      return {"providerID", "the providerID being set on Node " + x + " (" + e.detail() + ")"};
    case K::kNodeReady:
      return {"node-ready", "Node " + x + " becoming Ready"};
    default:
      return {"node-deleted", "Node " + x + " being deleted"};
  }
}

}  // namespace

// The providers name their own controllers (models/registry.h), so that
// this file names no cloud.
std::string ControllerTitle(const std::string& controller) {
  if (controller == "machinepool") return "MachinePool";
  if (const ControllerWords* words = FindControllerWords(controller)) return words->title;
  return controller.empty() ? "InfraMachinePool" : controller;
}

StepWords DescribeStep(const CausalGraph& g, const ControllerLog& log, const Moment& c,
                       const Moment& e, const std::string& end_words) {
  const std::string x = Quoted(e.object());
  switch (e.kind) {
    case K::kListed:
      return ControllerStep(log.infra_spans, log.infra, c, e, "providerIDList",
                            "adding instance " + x + "'s providerID to providerIDList", After(c));
    case K::kUnlisted:
      return ControllerStep(log.infra_spans, log.infra, c, e, "providerIDList",
                            "removing instance " + x + "'s providerID from providerIDList",
                            After(c));
    case K::kNodeRefAdded:
      return ControllerStep(log.machinepool, "machinepool", c, e, "nodeRef",
                            "matching Node " + x + " into status.nodeRefs", After(c));
    case K::kNodeRefRemoved:
      return ControllerStep(log.machinepool, "machinepool", c, e, "nodeRef",
                            "dropping Node " + x + " from status.nodeRefs", After(c));
    case K::kRegistered:
    case K::kProviderIdSet:
    case K::kNodeReady:
    case K::kNodeDeleted:
      return NodeStep(e);
    case K::kProvisioning:
      return {"bootstrap",
              "the bootstrap data secret being ready and the MachinePool controller setting "
              "phase Provisioning"};
    case K::kEnd:
      if (!end_words.empty()) return {"not-converged", end_words};
      return ControllerStep(log.machinepool, "machinepool", c, e, "status",
                            "bringing status to match spec (ready and available replicas, "
                            "versions, phase Running)",
                            After(c));
    default:
      return CloudStep(g, log, c, e);
  }
}

}  // namespace mpsim
