#include "models/mig/instance_url.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "util/prefetch.h"

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

uint64_t ProviderIdCache::Hash(const SharedString& url) {
  const auto addr = reinterpret_cast<uintptr_t>(url.identity());
  const unsigned __int128 m = static_cast<unsigned __int128>(addr) * 0x9e3779b97f4a7c15ULL;
  return static_cast<uint64_t>(m) ^ static_cast<uint64_t>(m >> 64);
}

const ProviderIdCache::Slot* ProviderIdCache::Find(const SharedString& url, uint64_t hash) const {
  if (slots_.empty()) return nullptr;
  for (size_t i = hash & mask(); !slots_[i].url.empty(); i = (i + 1) & mask()) {
    if (slots_[i].url.identity() == url.identity()) return &slots_[i];
  }
  return nullptr;
}

void ProviderIdCache::Put(const SharedString& url, SharedString id) {
  if (2 * (size_ + 1) > slots_.size()) {
    std::vector<Slot> old(std::max<size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    size_ = 0;
    for (Slot& s : old) {
      if (!s.url.empty()) Put(s.url, std::move(s.id));
    }
  }
  size_t i = Hash(url) & mask();
  while (!slots_[i].url.empty()) i = (i + 1) & mask();
  slots_[i] = Slot{url, std::move(id)};
  ++size_;
}

Status ProviderIdCache::GetAll(const std::vector<const SharedString*>& urls,
                               std::vector<SharedString>* ids) {
  const size_t n = urls.size();
  ids->assign(n, SharedString());
  for (size_t i = 0; i < n; ++i) {
    // The member holding the URL, then the slot its buffer hashes to.
    if (i + 2 * kPrefetchAhead < n) PrefetchRead(urls[i + 2 * kPrefetchAhead]);
    if (i + kPrefetchAhead < n && !slots_.empty()) {
      PrefetchRead(&slots_[Hash(*urls[i + kPrefetchAhead]) & mask()]);
    }
    const SharedString& url = *urls[i];
    if (const Slot* s = Find(url, Hash(url)); s != nullptr && !url.empty()) {
      (*ids)[i] = s->id;
      continue;
    }
    std::string id;
    if (Status st = ProviderIdFromUrl(url, &id); !st.ok()) return st;
    // Pinned: the cache makes each id once, and lists copy it thereafter.
    (*ids)[i] = SharedString::Pinned(std::move(id));
    if (!url.empty()) Put(url, (*ids)[i]);
  }
  return Status::Ok();
}

void ProviderIdCache::Trim(size_t members) {
  if (size_ > 2 * members + 64) {
    slots_.clear();
    size_ = 0;
  }
}

}  // namespace mpsim::mig
