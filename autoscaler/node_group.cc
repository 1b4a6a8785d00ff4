#include "autoscaler/node_group.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <unordered_map>

#include "api/quantity.h"

namespace mpsim::autoscaler {
namespace {

bool ParseSize(const StringMap& a, const char* key, int32_t* out) {
  auto it = a.find(key);
  if (it == a.end()) return false;
  const std::string_view s = it->second;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && *out >= 0;
}

int64_t Quantity(const StringMap& a, const char* key) {
  auto it = a.find(key);
  int64_t milli = 0;
  if (it == a.end() || !ParseQuantityMilli(it->second, &milli)) return 0;
  return milli;
}

// The template node: scale from zero reads the capacity annotations
// (docs/reference/autoscaler.md §6).
Resources Template(const StringMap& a) {
  Resources r;
  r.cpu_milli = Quantity(a, kCpuCapacityAnnotation);
  r.memory_bytes = Quantity(a, kMemoryCapacityAnnotation) / 1000;
  r.pods = static_cast<int32_t>(Quantity(a, kMaxPodsAnnotation) / 1000);
  return r;
}

}  // namespace

std::vector<NodeGroup> ListNodeGroups(ApiServer* mgmt, ApiServer* workload, const std::string& ns) {
  std::vector<NodeGroup> groups;
  std::unordered_map<std::string, size_t> group_of_id;
  mgmt->Store<MachinePool>().ForEach([&](const auto& mp) {
    if (mp->meta.ns != ns || mp->meta.deletion_timestamp) return;
    NodeGroup g;
    g.name = std::string(mp->meta.name);
    if (!ParseSize(mp->meta.annotations, kMinSizeAnnotation, &g.min) ||
        !ParseSize(mp->meta.annotations, kMaxSizeAnnotation, &g.max) || g.max < g.min) {
      return;
    }
    g.target = mp->spec.replicas.value_or(0);
    g.node_template = Template(mp->meta.annotations);
    groups.push_back(std::move(g));
  });
  for (size_t i = 0; i < groups.size(); ++i) {
    auto mp = mgmt->Store<MachinePool>().Find({ns, groups[i].name});
    if (!mp || !mp->spec.provider_id_list) continue;
    for (const SharedString& id : *mp->spec.provider_id_list) group_of_id[id.str()] = i;
    groups[i].instances = static_cast<int32_t>(mp->spec.provider_id_list->size());
  }
  workload->Store<Node>().ForEach([&](const auto& node) {
    auto it = group_of_id.find(node->spec.provider_id.str());
    if (it != group_of_id.end()) groups[it->second].nodes.emplace_back(node->meta.name);
  });
  return groups;
}

void SetTargetSize(ApiServer* mgmt, const std::string& ns, const std::string& group, int32_t size) {
  MachinePool mp;
  if (!mgmt->Store<MachinePool>().Get({ns, group}, &mp).ok()) return;
  mp.spec.replicas = size;
  mgmt->Store<MachinePool>().Patch(&mp);
}

bool DeleteNode(ApiServer* mgmt, ApiServer* workload, const std::string& ns,
                const std::string& group, const std::string& node, std::string* error) {
  auto n = workload->Store<Node>().Find({"", node});
  const std::string id = n ? n->spec.provider_id.str() : "";
  std::optional<Machine> machine;
  mgmt->Store<Machine>().ForEach([&](const auto& m) {
    if (!machine && !id.empty() && m->meta.ns == ns && m->spec.provider_id &&
        m->spec.provider_id->str() == id) {
      machine = *m;
    }
  });
  if (!machine) {
    *error = "unknown machine for node " + node;
    return false;
  }
  if (machine->meta.deletion_timestamp) return true;
  machine->meta.annotations[kDeleteMachineAnnotation] = "true";
  mgmt->Store<Machine>().Patch(&*machine);
  MachinePool mp;
  if (!mgmt->Store<MachinePool>().Get({ns, group}, &mp).ok()) return true;
  SetTargetSize(mgmt, ns, group, mp.spec.replicas.value_or(0) - 1);
  return true;
}

}  // namespace mpsim::autoscaler
