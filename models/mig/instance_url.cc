#include "models/mig/instance_url.h"

#include <vector>

namespace mpsim::mig {
namespace {

constexpr std::string_view kComputePrefix = "https://www.googleapis.com/compute/v1/";

std::vector<std::string_view> Split(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '/') {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
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
  const std::vector<std::string_view> parts = Split(path);
  const bool ok = parts.size() == 6 && parts[0] == "projects" && parts[2] == "zones" &&
                  parts[4] == "instances" && !parts[1].empty() && !parts[3].empty() &&
                  !parts[5].empty();
  if (!ok) {
    return Status::Invalid("failed to parse instance URL \"" + std::string(url) +
                           "\": expected projects/<project>/zones/<zone>/instances/<name>");
  }
  provider_id->assign("gce://").append(parts[1]).append("/").append(parts[3]);
  provider_id->append("/").append(parts[5]);
  return Status::Ok();
}

}  // namespace mpsim::mig
