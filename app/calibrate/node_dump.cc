#include "app/calibrate/node_dump.h"

#include "app/calibrate/json_fields.h"

namespace mpsim::calibrate {

using nlohmann::json;

namespace {

// status.conditions[type=Ready]: its lastTransitionTime when status is "True".
bool ReadReady(const json& node, const JsonAt& at, NodeRow* row, std::string* error) {
  const json* status = Find(node, "status");
  const json* conditions = status ? Find(*status, "conditions") : nullptr;
  if (conditions == nullptr || !conditions->is_array()) return true;
  const JsonAt cat = at.Key("status").Key("conditions");
  for (size_t i = 0; i < conditions->size(); ++i) {
    const json& c = (*conditions)[i];
    std::string type, state;
    if (!RequireString(c, cat.Index(i), "type", &type, error)) return false;
    if (type != "Ready") continue;
    if (!RequireString(c, cat.Index(i), "status", &state, error)) return false;
    if (state != "True") return true;
    int64_t t = 0;
    if (!RequireTime(c, cat.Index(i), "lastTransitionTime", &t, error)) return false;
    row->ready = t;
    return true;
  }
  return true;
}

// Whether a managedFields entry's fieldsV1 holds spec.providerID, in the
// main resource (a status subresource entry never does).
bool OwnsProviderID(const json& entry) {
  const json* fields = Find(entry, "fieldsV1");
  const json* spec = fields ? Find(*fields, "f:spec") : nullptr;
  if (spec == nullptr || Find(*spec, "f:providerID") == nullptr) return false;
  const json* sub = Find(entry, "subresource");
  return sub == nullptr || (sub->is_string() && sub->get<std::string>().empty());
}

bool ReadProviderIDOwner(const json& meta, const JsonAt& at, NodeRow* row, std::string* error) {
  const json* managed = Find(meta, "managedFields");
  if (managed == nullptr || !managed->is_array()) return true;
  const JsonAt mat = at.Key("managedFields");
  for (size_t i = 0; i < managed->size(); ++i) {
    const json& entry = (*managed)[i];
    if (!OwnsProviderID(entry)) continue;
    if (!RequireString(entry, mat.Index(i), "manager", &row->provider_id_manager, error)) {
      return false;
    }
    return OptionalTime(entry, mat.Index(i), "time", &row->provider_id_time, error);
  }
  return true;
}

bool ReadNode(const json& node, const JsonAt& at, NodeRow* row, std::string* error) {
  const json* meta = nullptr;
  if (!RequireObject(node, at, "metadata", &meta, error)) return false;
  const JsonAt mat = at.Key("metadata");
  if (!RequireString(*meta, mat, "name", &row->name, error) ||
      !RequireTime(*meta, mat, "creationTimestamp", &row->created, error) ||
      !ReadProviderIDOwner(*meta, mat, row, error)) {
    return false;
  }
  if (const json* spec = Find(node, "spec")) {
    if (!OptionalString(*spec, at.Key("spec"), "providerID", &row->provider_id, error)) {
      return false;
    }
  }
  return ReadReady(node, at, row, error);
}

}  // namespace

bool ReadNodes(const json& doc, const std::string& file, std::vector<NodeRow>* out,
               std::string* error) {
  const JsonAt root{&file, "$"};
  const json* items = nullptr;
  if (!RequireArray(doc, root, "items", &items, error)) return false;
  for (size_t i = 0; i < items->size(); ++i) {
    NodeRow row;
    row.file = file;
    if (!ReadNode((*items)[i], root.Key("items").Index(i), &row, error)) return false;
    out->push_back(std::move(row));
  }
  return true;
}

}  // namespace mpsim::calibrate
