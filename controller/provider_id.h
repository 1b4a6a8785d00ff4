// How providerIDs are compared: the key under which a Node and a
// spec.providerIDList entry meet (exact at HEAD, last segment up to v1.2.0).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "controller/options.h"
#include "util/flat_view_map.h"
#include "util/shared_string.h"

namespace mpsim {

// The match key of `id`, or nullopt if the id can never match (empty, or
// invalid for the legacy parser: it must match ^[^:]+://.*[^/]$). The key is
// a view into `id` (every rule keeps a substring), so it allocates nothing;
// it lives as long as `id` does.
// Inline: every per-reconcile pass over N providerIDs calls it N times.
std::optional<std::string_view> LegacyProviderIDKey(std::string_view id);
inline std::optional<std::string_view> ProviderIDKey(std::string_view id, ProviderIDMatch match) {
  if (id.empty()) return std::nullopt;
  if (match == ProviderIDMatch::kLegacyLastSegment) return LegacyProviderIDKey(id);
  return id;
}

// ProviderIDKey and the key's FlatViewMap hash, for maps keyed by it: a key
// that is the whole providerID has the hash its buffer keeps.
inline std::optional<std::pair<std::string_view, uint64_t>> HashedProviderIDKey(
    const SharedString& id, ProviderIDMatch match) {
  const std::optional<std::string_view> key = ProviderIDKey(id, match);
  if (!key) return std::nullopt;
  return std::make_pair(*key, key->size() == id.size() ? id.Hash() : HashBytes(*key));
}

}  // namespace mpsim
