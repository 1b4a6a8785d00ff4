#include "models/kapsule/semver.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace mpsim::kapsule {
namespace {

struct Semver {
  std::array<uint64_t, 3> core{};
  std::string pre;  // empty: a release
};

// One numeric identifier: digits, no leading zero unless it is "0".
bool ParseNumber(std::string_view s, uint64_t* n) {
  if (s.empty() || s.size() > 18 || (s.size() > 1 && s[0] == '0')) return false;
  *n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    *n = *n * 10 + static_cast<uint64_t>(c - '0');
  }
  return true;
}

bool ParseSemver(std::string_view s, Semver* v) {
  if (size_t plus = s.find('+'); plus != std::string_view::npos) {
    if (plus + 1 == s.size()) return false;
    s = s.substr(0, plus);
  }
  if (size_t dash = s.find('-'); dash != std::string_view::npos) {
    v->pre = std::string(s.substr(dash + 1));
    if (v->pre.empty()) return false;
    s = s.substr(0, dash);
  }
  for (size_t i = 0; i < 3; ++i) {
    const size_t dot = s.find('.');
    if ((i < 2) == (dot == std::string_view::npos)) return false;
    if (!ParseNumber(s.substr(0, dot), &v->core[i])) return false;
    s = i < 2 ? s.substr(dot + 1) : std::string_view();
  }
  return true;
}

bool AtLeast(const Semver& a, const Semver& b) {
  if (a.core != b.core) return a.core > b.core;
  if (a.pre.empty() || b.pre.empty()) return a.pre.empty();
  return a.pre >= b.pre;
}

}  // namespace

Status IsUpToDate(const std::string& current, const std::string& desired, bool* up_to_date) {
  Semver c, d;
  if (!ParseSemver(current, &c)) {
    return Status::Invalid("failed to parse current version: Invalid Semantic Version");
  }
  if (!ParseSemver(desired, &d)) {
    return Status::Invalid("failed to parse desired version: Invalid Semantic Version");
  }
  *up_to_date = AtLeast(c, d);
  return Status::Ok();
}

}  // namespace mpsim::kapsule
