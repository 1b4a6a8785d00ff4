#include <string>
#include <vector>

#include "api/quantity.h"
#include "scenario/validate.h"
#include "sim/duration.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::scenario {
namespace {

// Pods a scenario may create in all; a first-fit scheduler's pass is
// pods x Nodes.
constexpr int kMaxPodsPerEvent = 100'000;

void CheckQuantity(const std::string& text, const std::string& path, bool positive,
                   std::vector<Issue>* issues) {
  int64_t milli = 0;
  if (!ParseQuantityMilli(text, &milli)) {
    issues->push_back(
        {path, "expected a Kubernetes quantity such as 4, 500m, 16Gi or 1.5G, got " + Quote(text),
         ""});
  } else if (positive && milli <= 0) {
    issues->push_back({path, "expected more than 0, got " + Quote(text), ""});
  }
}

void CheckAutoscaler(const proto::AutoscalerSpec& a, std::vector<Issue>* issues) {
  const std::string path = "spec.autoscaler";
  auto positive = [&](Duration d, const char* key) {
    if (d <= 0) issues->push_back({JoinKey(path, key), "expected more than 0s", ""});
  };
  positive(a.scan_interval(), "scanInterval");
  positive(a.max_node_provision_time(), "maxNodeProvisionTime");
  CheckOneOf(a.expander(), {"random", "least-waste"}, JoinKey(path, "expander"), "expander",
             issues);
}

void CheckPool(const proto::MachinePoolSpec& p, const std::string& path, bool has_autoscaler,
               std::vector<Issue>* issues) {
  const proto::NodeResources& r = p.node_resources();
  const std::string res = JoinKey(path, "nodeResources");
  CheckQuantity(r.cpu(), JoinKey(res, "cpu"), true, issues);
  CheckQuantity(r.memory(), JoinKey(res, "memory"), true, issues);
  if (r.pods() < 1) issues->push_back({JoinKey(res, "pods"), "expected at least 1 pod", ""});
  if (!p.has_autoscaling()) return;
  const std::string as = JoinKey(path, "autoscaling");
  if (!has_autoscaler) {
    issues->push_back({as, "a node group needs an autoscaler: add `autoscaler: {}` to spec", ""});
  }
  if (!p.autoscaling().has_min() || !p.autoscaling().has_max()) {
    // The clusterapi provider makes no node group of a pool that lacks
    // either annotation (docs/reference/autoscaler.md §6).
    issues->push_back({as, "expected both min and max, such as {min: 1, max: 10}", ""});
  } else if (p.autoscaling().min() > p.autoscaling().max()) {
    issues->push_back({JoinKey(as, "max"),
                       "expected at least min (" + std::to_string(p.autoscaling().min()) +
                           "), got " + std::to_string(p.autoscaling().max()),
                       ""});
  } else if (p.autoscaling().max() > kMaxReplicas) {
    issues->push_back({JoinKey(as, "max"),
                       "expected at most " + std::to_string(kMaxReplicas) + ", got " +
                           std::to_string(p.autoscaling().max()),
                       ""});
  }
}

}  // namespace

void ValidateAutoscaling(const proto::ScenarioSpec& spec, std::vector<Issue>* issues) {
  if (spec.has_autoscaler()) CheckAutoscaler(spec.autoscaler(), issues);
  for (int i = 0; i < spec.machine_pools_size(); ++i) {
    CheckPool(spec.machine_pools(i), JoinIndex("spec.machinePools", i), spec.has_autoscaler(),
              issues);
  }
}

void ValidatePodsEvent(const proto::Event::Pods& e, const std::string& path,
                       std::vector<Issue>* issues) {
  if (e.count() < 1 || e.count() > kMaxPodsPerEvent) {
    issues->push_back({JoinKey(path, "count"),
                       "expected 1 to " + std::to_string(kMaxPodsPerEvent) + " pods, got " +
                           std::to_string(e.count()),
                       ""});
  }
  CheckQuantity(e.cpu(), JoinKey(path, "cpu"), false, issues);
  CheckQuantity(e.memory(), JoinKey(path, "memory"), false, issues);
}

void ValidateDeletePodsEvent(const proto::Event::DeletePods& e, const std::string& path,
                             std::vector<Issue>* issues) {
  if (e.count() < 1) issues->push_back({JoinKey(path, "count"), "expected at least 1 pod", ""});
}

}  // namespace mpsim::scenario
