#include "controller/versions.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <string>

#include "util/string_hash.h"

namespace mpsim {
namespace {

struct SemVer {
  uint64_t core[3] = {0, 0, 0};
  std::vector<std::string> pre;
};

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

// semver.ParseTolerant: optional "v", missing minor/patch default to 0.
std::optional<SemVer> ParseTolerant(std::string v) {
  if (!v.empty() && (v[0] == 'v' || v[0] == 'V')) v.erase(0, 1);
  v = v.substr(0, v.find('+'));  // build metadata does not order here
  SemVer out;
  size_t dash = v.find('-');
  if (dash != std::string::npos) {
    out.pre = Split(v.substr(dash + 1), '.');
    v = v.substr(0, dash);
  }
  std::vector<std::string> parts = Split(v, '.');
  if (parts.empty() || parts.size() > 3) return std::nullopt;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!AllDigits(parts[i]) || parts[i].size() > 18) return std::nullopt;
    out.core[i] = std::stoull(parts[i]);
  }
  return out;
}

int ComparePre(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.empty() || b.empty()) return a.empty() == b.empty() ? 0 : (a.empty() ? 1 : -1);
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    bool an = AllDigits(a[i]), bn = AllDigits(b[i]);
    if (an && bn && a[i].size() != b[i].size()) return a[i].size() < b[i].size() ? -1 : 1;
    if (an != bn) return an ? -1 : 1;
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

int Compare(const SemVer& a, const SemVer& b) {
  for (int i = 0; i < 3; ++i) {
    if (a.core[i] != b.core[i]) return a.core[i] < b.core[i] ? -1 : 1;
  }
  return ComparePre(a.pre, b.pre);
}

struct Ordered {
  VersionCount v;
  size_t order;
};

bool VersionLess(const Ordered& i, const Ordered& j) {
  std::optional<SemVer> vi = ParseTolerant(i.v.version), vj = ParseTolerant(j.v.version);
  if (vi && vj) {
    int c = Compare(*vi, *vj);
    if (c != 0) return c < 0;
  } else if (vi || vj) {
    return vi.has_value();  // parseable versions sort first
  }
  if (i.v.version != j.v.version) return i.v.version < j.v.version;
  return i.order < j.order;
}

std::optional<std::vector<VersionCount>> Sorted(std::vector<Ordered> versions) {
  if (versions.empty()) return std::nullopt;
  std::stable_sort(versions.begin(), versions.end(), VersionLess);
  std::vector<VersionCount> out;
  for (const Ordered& o : versions) out.push_back(o.v);
  return out;
}

}  // namespace

void AddVersion(const std::string& v, std::vector<VersionCount>* versions) {
  if (v.empty()) return;
  if (!versions->empty() && BytesEqual(versions->back().version, v)) {
    ++versions->back().replicas;
  } else {
    versions->push_back({v, 1});
  }
}

std::optional<std::vector<VersionCount>> AggregateStatusVersions(
    const std::vector<VersionCount>& versions) {
  std::map<std::string, size_t> index;
  std::vector<Ordered> agg;
  for (const VersionCount& v : versions) {
    if (v.version.empty()) continue;
    auto [it, inserted] = index.try_emplace(v.version, agg.size());
    if (inserted) {
      agg.push_back({v, agg.size()});
    } else {
      agg[it->second].v.replicas += v.replicas;
    }
  }
  return Sorted(std::move(agg));
}

std::optional<std::vector<VersionCount>> VersionsFromMachines(
    const std::vector<std::shared_ptr<const Machine>>& machines) {
  // The aggregate has one entry per version text, ordered by the texts alone
  // (Sorted never reaches its first-seen tie-break), so the Machines' order
  // does not matter: sorting them by (creationTimestamp, name) first, as this
  // once did, cost a sort of every pool member per reconcile for nothing.
  std::vector<VersionCount> versions;
  for (const auto& m : machines) {
    // The Node's kubelet version once the Machine controller copied it.
    if (m->status.node_info && !m->status.node_info->kubelet_version.empty()) {
      AddVersion(m->status.node_info->kubelet_version, &versions);
    } else if (m->spec.version) {
      AddVersion(*m->spec.version, &versions);
    }
  }
  return AggregateStatusVersions(versions);
}

}  // namespace mpsim
