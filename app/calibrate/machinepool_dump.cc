#include "app/calibrate/machinepool_dump.h"

#include <limits>

#include "app/calibrate/json_fields.h"

namespace mpsim::calibrate {

using nlohmann::json;

namespace {

bool ReadPoolReplicas(const json& spec, const JsonAt& at, MachinePoolRow* row, std::string* error) {
  const json* r = Find(spec, "replicas");
  if (r == nullptr) return true;
  if (!r->is_number_integer() || r->get<int64_t>() < 0 ||
      r->get<int64_t>() > std::numeric_limits<int32_t>::max()) {
    *error = at.Key("replicas").Error("expected a non-negative integer");
    return false;
  }
  row->replicas = static_cast<int32_t>(r->get<int64_t>());
  return true;
}

bool ReadPoolProviderIDs(const json& spec, const JsonAt& at, MachinePoolRow* row,
                         std::string* error) {
  const json* ids = Find(spec, "providerIDList");
  if (ids == nullptr) return true;
  if (!ids->is_array()) {
    *error = at.Key("providerIDList").Error("expected an array");
    return false;
  }
  for (size_t i = 0; i < ids->size(); ++i) {
    if (!(*ids)[i].is_string()) {
      *error = at.Key("providerIDList").Index(i).Error("expected a string");
      return false;
    }
    row->provider_ids.push_back((*ids)[i].get<std::string>());
  }
  return true;
}

// spec.template.spec: version and infrastructureRef.kind.
bool ReadPoolTemplate(const json& spec, const JsonAt& at, MachinePoolRow* row, std::string* error) {
  const json* tmpl = nullptr;
  const json* tspec = nullptr;
  const json* ref = nullptr;
  const JsonAt tat = at.Key("template");
  return RequireObject(spec, at, "template", &tmpl, error) &&
         RequireObject(*tmpl, tat, "spec", &tspec, error) &&
         OptionalString(*tspec, tat.Key("spec"), "version", &row->version, error) &&
         RequireObject(*tspec, tat.Key("spec"), "infrastructureRef", &ref, error) &&
         RequireString(*ref, tat.Key("spec").Key("infrastructureRef"), "kind", &row->infra_kind,
                       error);
}

bool ReadPool(const json& pool, const JsonAt& at, MachinePoolRow* row, std::string* error) {
  const json* meta = nullptr;
  const json* spec = nullptr;
  return RequireObject(pool, at, "metadata", &meta, error) &&
         RequireString(*meta, at.Key("metadata"), "name", &row->name, error) &&
         OptionalString(*meta, at.Key("metadata"), "namespace", &row->ns, error) &&
         RequireObject(pool, at, "spec", &spec, error) &&
         ReadPoolReplicas(*spec, at.Key("spec"), row, error) &&
         ReadPoolTemplate(*spec, at.Key("spec"), row, error) &&
         ReadPoolProviderIDs(*spec, at.Key("spec"), row, error);
}

}  // namespace

bool ReadMachinePools(const json& doc, const std::string& file, std::vector<MachinePoolRow>* out,
                      std::string* error) {
  const JsonAt root{&file, "$"};
  const json* items = nullptr;
  if (!RequireArray(doc, root, "items", &items, error)) return false;
  for (size_t i = 0; i < items->size(); ++i) {
    MachinePoolRow row;
    row.file = file;
    row.at = root.Key("items").Index(i).path;
    if (!ReadPool((*items)[i], root.Key("items").Index(i), &row, error)) return false;
    out->push_back(std::move(row));
  }
  return true;
}

}  // namespace mpsim::calibrate
