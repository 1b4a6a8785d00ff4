#include "app/calibrate/provider_id.h"

#include <string_view>
#include <vector>

namespace mpsim::calibrate {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The '/'-separated parts after `scheme`.
std::vector<std::string> PartsAfter(const std::string& id, std::string_view scheme) {
  std::vector<std::string> parts;
  std::string_view rest = std::string_view(id).substr(scheme.size());
  for (size_t slash; (slash = rest.find('/')) != std::string_view::npos;) {
    parts.emplace_back(rest.substr(0, slash));
    rest.remove_prefix(slash + 1);
  }
  parts.emplace_back(rest);
  return parts;
}

std::string AsciiLower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

}  // namespace

std::string JoinKey(const std::string& id) {
  if (StartsWith(id, "aws://")) {
    const std::vector<std::string> parts = PartsAfter(id, "aws://");
    return "aws://" + parts.back();
  }
  if (StartsWith(AsciiLower(id), "azure://")) return AsciiLower(id);
  return id;
}

std::string ZoneOf(const std::string& id) {
  // aws:///<zone>/<id>: parts "", zone, id.
  if (StartsWith(id, "aws:///")) {
    const std::vector<std::string> p = PartsAfter(id, "aws:///");
    return p.size() == 2 ? p[0] : "";
  }
  if (StartsWith(id, "gce://")) {
    const std::vector<std::string> p = PartsAfter(id, "gce://");
    return p.size() == 3 ? p[1] : "";
  }
  if (StartsWith(id, "scaleway://instance/")) {
    const std::vector<std::string> p = PartsAfter(id, "scaleway://instance/");
    return p.size() == 2 ? p[0] : "";
  }
  return "";
}

}  // namespace mpsim::calibrate
