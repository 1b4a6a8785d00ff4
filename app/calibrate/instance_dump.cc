#include "app/calibrate/instance_dump.h"

#include "app/calibrate/json_fields.h"

namespace mpsim::calibrate {

using nlohmann::json;

namespace {

bool ReadAwsInstance(const json& inst, const JsonAt& at, InstanceRow* row, std::string* error) {
  std::string zone;
  if (!RequireString(inst, at, "InstanceId", &row->name, error) ||
      !RequireTime(inst, at, "LaunchTime", &row->launched, error)) {
    return false;
  }
  if (const json* placement = Find(inst, "Placement")) {
    if (!OptionalString(*placement, at.Key("Placement"), "AvailabilityZone", &zone, error)) {
      return false;
    }
  }
  row->provider_id = "aws:///" + zone + "/" + row->name;
  if (!zone.empty()) row->zones = {zone};
  return true;
}

// The CLI flattens a VM's `properties` (timeCreated there in the REST API);
// both spellings are read.
bool ReadAzureVm(const json& vm, const JsonAt& at, InstanceRow* row, std::string* error) {
  std::string id;
  if (!RequireString(vm, at, "id", &id, error)) return false;
  row->name = id;
  row->provider_id = "azure://" + id;
  const json* props = Find(vm, "properties");
  if (Find(vm, "timeCreated") == nullptr && props != nullptr &&
      Find(*props, "timeCreated") != nullptr) {
    if (!RequireTime(*props, at.Key("properties"), "timeCreated", &row->launched, error)) {
      return false;
    }
  } else if (!RequireTime(vm, at, "timeCreated", &row->launched, error)) {
    return false;
  }
  if (const json* zones = Find(vm, "zones"); zones != nullptr && zones->is_array()) {
    for (const json& z : *zones) {
      if (z.is_string()) row->zones.push_back(z.get<std::string>());
    }
  }
  return true;
}

// selfLink ".../projects/<p>/zones/<z>/instances/<n>" -> "gce://<p>/<z>/<n>".
bool GceProviderID(const std::string& link, std::string* out, std::string* zone) {
  const size_t p = link.find("/projects/");
  const size_t z = link.find("/zones/");
  const size_t i = link.find("/instances/");
  if (p == std::string::npos || z == std::string::npos || i == std::string::npos || !(p < z) ||
      !(z < i)) {
    return false;
  }
  const std::string project = link.substr(p + 10, z - p - 10);
  *zone = link.substr(z + 7, i - z - 7);
  const std::string name = link.substr(i + 11);
  if (project.empty() || zone->empty() || name.empty()) return false;
  *out = "gce://" + project + "/" + *zone + "/" + name;
  return true;
}

bool ReadGcpInstance(const json& inst, const JsonAt& at, InstanceRow* row, std::string* error) {
  std::string link, zone;
  if (!RequireString(inst, at, "selfLink", &link, error) ||
      !RequireTime(inst, at, "creationTimestamp", &row->launched, error)) {
    return false;
  }
  if (!GceProviderID(link, &row->provider_id, &zone)) {
    *error =
        at.Key("selfLink")
            .Error(
                "expected https://www.googleapis.com/compute/v1/projects/P/zones/Z/instances/N, "
                "got \"" +
                link + "\"");
    return false;
  }
  row->name = row->provider_id;
  row->zones = {zone};
  return true;
}

using ReadOne = bool (*)(const json&, const JsonAt&, InstanceRow*, std::string*);

bool ReadInstanceArray(const json& items, const JsonAt& at, const std::string& file, ReadOne read,
                       std::vector<InstanceRow>* out, std::string* error) {
  for (size_t i = 0; i < items.size(); ++i) {
    InstanceRow row;
    row.file = file;
    if (!read(items[i], at.Index(i), &row, error)) return false;
    out->push_back(std::move(row));
  }
  return true;
}

}  // namespace

bool ReadAwsInstances(const json& doc, const std::string& file, std::vector<InstanceRow>* out,
                      std::string* error) {
  const JsonAt root{&file, "$"};
  const json* reservations = nullptr;
  if (!RequireArray(doc, root, "Reservations", &reservations, error)) return false;
  for (size_t r = 0; r < reservations->size(); ++r) {
    const JsonAt at = root.Key("Reservations").Index(r);
    const json* instances = nullptr;
    if (!RequireArray((*reservations)[r], at, "Instances", &instances, error) ||
        !ReadInstanceArray(*instances, at.Key("Instances"), file, ReadAwsInstance, out, error)) {
      return false;
    }
  }
  return true;
}

bool ReadAzureVms(const json& doc, const std::string& file, std::vector<InstanceRow>* out,
                  std::string* error) {
  return ReadInstanceArray(doc, JsonAt{&file, "$"}, file, ReadAzureVm, out, error);
}

bool ReadGcpInstances(const json& doc, const std::string& file, std::vector<InstanceRow>* out,
                      std::string* error) {
  return ReadInstanceArray(doc, JsonAt{&file, "$"}, file, ReadGcpInstance, out, error);
}

}  // namespace mpsim::calibrate
