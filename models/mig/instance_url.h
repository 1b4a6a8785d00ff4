// CAPG's providerID from a Compute instance URL: the self link must be
// exactly .../projects/<p>/zones/<z>/instances/<n>, anything else is an error.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "util/shared_string.h"
#include "util/string_hash.h"

namespace mpsim::mig {

// The self link of an instance, as listInstances returns it.
std::string InstanceUrl(std::string_view project, std::string_view zone, std::string_view name);

// gce://<project>/<zone>/<name> from a self link; an error naming the URL when
// it is not of the one accepted shape (docs/reference/providers.md §3.5; CAPG's
// GCPMachinePool, exp/controllers/gcpmachinepool_controller.go).
Status ProviderIdFromUrl(std::string_view url, std::string* provider_id);

// ProviderIdFromUrl with its answers kept: every reconcile parses every
// member's URL, and a URL always gives the same providerID, so an answer is
// worked out once and shared by every providerIDList version that lists it.
// Answers are found by the URL's buffer (SharedString identity), not its
// text: a lookup reads no bytes. The cache holds each URL it answers, so no
// other string can take that buffer's address while the answer is kept.
// Errors are not kept: a malformed URL fails every pass, as upstream.
class ProviderIdCache {
 public:
  // Get of each URL, in order, into ids (resized to match); the lookups'
  // cache misses overlap. Stops at the first malformed URL.
  Status GetAll(const std::vector<const SharedString*>& urls, std::vector<SharedString>* ids);
  // Drops every answer once they outnumber the live members twice over (the
  // URLs of deleted instances), so the cache stays O(members).
  void Trim(size_t members);

 private:
  struct Slot {
    SharedString url;  // empty: a free slot
    SharedString id;
  };
  static uint64_t Hash(const SharedString& url);
  size_t mask() const { return slots_.size() - 1; }
  const Slot* Find(const SharedString& url, uint64_t hash) const;
  void Put(const SharedString& url, SharedString id);

  std::vector<Slot> slots_;  // size zero or a power of two, at most half full
  size_t size_ = 0;
};

// gce://<project>/<location>/<name> as GKE pools build it, with no check of a
// URL (docs/reference/providers.md §3.5; CAPG's providerid.NewFromResourceURL, path.Join).
std::string ProviderIdFromResource(std::string_view project, std::string_view location,
                                   std::string_view name);

}  // namespace mpsim::mig
