#include "app/calibrate/dump_kind.h"

#include "app/calibrate/json_fields.h"

namespace mpsim::calibrate {

using nlohmann::json;

namespace {

bool StringHas(const json& obj, const char* key, const char* part) {
  const json* v = Find(obj, key);
  return v != nullptr && v->is_string() && v->get<std::string>().find(part) != std::string::npos;
}

// A Kubernetes List (kind "List" or "<Kind>List") by its items' kind.
DumpKind KubernetesListKind(const json& doc) {
  const json* items = Find(doc, "items");
  if (items == nullptr || !items->is_array()) return DumpKind::kUnknown;
  if (StringHas(doc, "kind", "NodeList")) return DumpKind::kNodes;
  if (StringHas(doc, "kind", "MachinePoolList")) return DumpKind::kMachinePools;
  if (items->empty()) return DumpKind::kEmpty;
  const json& first = items->front();
  if (StringHas(first, "kind", "Node") && !StringHas(first, "kind", "NodePool")) {
    return DumpKind::kNodes;
  }
  if (Find(first, "kind") != nullptr && first["kind"] == "MachinePool") {
    return DumpKind::kMachinePools;
  }
  return DumpKind::kUnknown;
}

// An array of a cloud's instances, by the first one's fields.
DumpKind InstanceArrayKind(const json& doc) {
  if (doc.empty()) return DumpKind::kEmpty;
  const json& first = doc.front();
  if (StringHas(first, "selfLink", "/instances/") && Find(first, "creationTimestamp")) {
    return DumpKind::kGcpInstances;
  }
  if (Find(first, "instanceId") != nullptr && StringHas(first, "id", "/virtualMachines/")) {
    return DumpKind::kAzureVms;
  }
  return DumpKind::kUnknown;
}

}  // namespace

DumpKind RecogniseDump(const json& doc) {
  if (doc.is_array()) return InstanceArrayKind(doc);
  if (!doc.is_object()) return DumpKind::kUnknown;
  if (const json* r = Find(doc, "Reservations"); r != nullptr && r->is_array()) {
    return DumpKind::kAwsInstances;
  }
  return KubernetesListKind(doc);
}

const char* DumpKindName(DumpKind kind) {
  switch (kind) {
    case DumpKind::kNodes:
      return "kubectl get nodes -o json";
    case DumpKind::kMachinePools:
      return "kubectl get machinepools -A -o json";
    case DumpKind::kAwsInstances:
      return "aws ec2 describe-instances";
    case DumpKind::kAzureVms:
      return "az vmss list-instances";
    case DumpKind::kGcpInstances:
      return "gcloud compute instances list --format=json";
    case DumpKind::kEmpty:
      return "an empty list";
    case DumpKind::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace mpsim::calibrate
