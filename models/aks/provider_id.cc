#include "models/aks/provider_id.h"

namespace mpsim::aks {

Status ConvertResourceGroupNameToLower(const std::string& resource_id, std::string* out) {
  static const std::string kGroups = "/resourceGroups/";
  static const std::string kProviders = "/providers/";
  const size_t subs = resource_id.find("/subscriptions/");
  const size_t groups = resource_id.rfind(kGroups);
  const size_t providers = resource_id.rfind(kProviders);
  if (subs == std::string::npos || groups == std::string::npos || groups < subs ||
      providers == std::string::npos || providers <= groups + kGroups.size()) {
    return Status::Invalid("invalid resource ID: " + resource_id);
  }
  const size_t from = groups + kGroups.size();
  const std::string rg = resource_id.substr(from, providers - from);
  std::string lower = rg;
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  *out = resource_id;
  out->replace(resource_id.find(rg), rg.size(), lower);
  return Status::Ok();
}

Status ProviderIdOf(const std::string& vm_resource_id, std::string* out) {
  std::string converted;
  if (Status s = ConvertResourceGroupNameToLower(vm_resource_id, &converted); !s.ok()) {
    return Status::Invalid("failed to parse resource group: " + s.message());
  }
  *out = "azure://" + converted;
  return Status::Ok();
}

}  // namespace mpsim::aks
