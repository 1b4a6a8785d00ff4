#include "models/mig/instance_url.h"

#include <array>

namespace mpsim::mig {
namespace {

constexpr std::string_view kComputePrefix = "https://www.googleapis.com/compute/v1/";

// The path's six '/'-separated segments, or false if it has another count.
// Views, not copies: every reconcile parses every instance's URL.
bool SplitSix(std::string_view s, std::array<std::string_view, 6>* out) {
  for (size_t n = 0; n < out->size(); ++n) {
    const size_t slash = s.find('/');
    const bool last = n + 1 == out->size();
    if ((slash == std::string_view::npos) != last) return false;  // too few or too many
    (*out)[n] = s.substr(0, slash);
    if (!last) s.remove_prefix(slash + 1);
  }
  return true;
}

}  // namespace

std::string InstanceUrl(std::string_view project, std::string_view zone, std::string_view name) {
  std::string url(kComputePrefix);
  url.append("projects/").append(project).append("/zones/").append(zone);
  return url.append("/instances/").append(name);
}

std::string ProviderIdFromResource(std::string_view project, std::string_view location,
                                   std::string_view name) {
  std::string id("gce://");
  return id.append(project).append("/").append(location).append("/").append(name);
}

Status ProviderIdFromUrl(std::string_view url, std::string* provider_id) {
  std::string_view path = url;
  if (path.starts_with(kComputePrefix)) path.remove_prefix(kComputePrefix.size());
  std::array<std::string_view, 6> parts;
  const bool ok = SplitSix(path, &parts) && parts[0] == "projects" && parts[2] == "zones" &&
                  parts[4] == "instances" && !parts[1].empty() && !parts[3].empty() &&
                  !parts[5].empty();
  if (!ok) {
    return Status::Invalid("failed to parse instance URL \"" + std::string(url) +
                           "\": expected projects/<project>/zones/<zone>/instances/<name>");
  }
  constexpr std::string_view kScheme = "gce://";
  provider_id->clear();
  provider_id->reserve(kScheme.size() + parts[1].size() + parts[3].size() + parts[5].size() + 2);
  provider_id->append(kScheme).append(parts[1]).append("/").append(parts[3]);
  provider_id->append("/").append(parts[5]);
  return Status::Ok();
}

Status ProviderIdCache::Get(std::string_view url, SharedString* provider_id) {
  if (auto it = ids_.find(url); it != ids_.end()) {
    *provider_id = it->second;
    return Status::Ok();
  }
  std::string id;
  if (Status s = ProviderIdFromUrl(url, &id); !s.ok()) return s;
  *provider_id = ids_.emplace(std::string(url), SharedString(std::move(id))).first->second;
  return Status::Ok();
}

void ProviderIdCache::Trim(size_t members) {
  if (ids_.size() > 2 * members + 64) ids_.clear();
}

}  // namespace mpsim::mig
