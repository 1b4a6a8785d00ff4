#include "controller/provider_id.h"

namespace mpsim {

// noderefutil.NewProviderID (deleted in v1.6): validates and returns ID().
std::optional<std::string_view> LegacyProviderIDKey(std::string_view id) {
  size_t colon = id.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  if (id.compare(colon, 3, "://") != 0) return std::nullopt;
  if (id.size() <= colon + 3 || id.back() == '/') return std::nullopt;
  return id.substr(id.rfind('/') + 1);
}

}  // namespace mpsim
