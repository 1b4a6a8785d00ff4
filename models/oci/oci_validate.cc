// The rules of the `oci` and `oke` blocks beyond the keys every block shares.
#include "api/time.h"
#include "models/oci/oci_schema.h"
#include "sim/scenario_checks.h"

namespace mpsim::oci {
namespace {

// OCI region keys are lowercase letters, digits and dashes (iad,
// eu-frankfurt-1); the OCID takes the key as it is.
void CheckRegion(const std::string& region, const std::string& path,
                 std::vector<scenario::Issue>* issues) {
  bool ok = !region.empty();
  for (char c : region) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  if (!ok) {
    scenario::AddIssue(issues, scenario::JoinKey(path, "region"),
                       "expected a region key of lowercase letters, digits and dashes, e.g. iad");
  }
}

}  // namespace

void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues) {
  const proto::OciProvider& c = pool.oci();
  scenario::ValidateSharedKeys(c, path, issues);
  CheckRegion(c.region(), path, issues);
}

// OKE refuses cycling with both maximumSurge and maximumUnavailable at 0,
// which could never make progress (assumed, as GKE's surge upgrade does).
void ValidateOkeBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                      std::vector<scenario::Issue>* issues) {
  using scenario::JoinKey;
  const proto::OkeProvider& c = pool.oke();
  scenario::ValidateSharedKeys(c, path, issues);
  CheckRegion(c.region(), path, issues);
  if (c.maximum_surge() < 0) {
    scenario::AddIssue(issues, JoinKey(path, "maximumSurge"), "expected a count of at least 0");
  }
  if (c.maximum_unavailable() < 0) {
    scenario::AddIssue(issues, JoinKey(path, "maximumUnavailable"),
                       "expected a count of at least 0");
  }
  if (c.maximum_surge() == 0 && c.maximum_unavailable() == 0) {
    scenario::AddIssue(issues, JoinKey(path, "maximumSurge"),
                       "maximumSurge and maximumUnavailable cannot both be 0");
  }
  // OKE's range for the eviction grace is PT0M to PT60M (oci-scaleway.md §2.4).
  if (c.eviction_grace_duration() < 0 || c.eviction_grace_duration() > 60 * kMinute) {
    scenario::AddIssue(issues, JoinKey(path, "evictionGraceDuration"),
                       "expected a duration from 0s to 60m");
  }
  scenario::ValidateDistribution(c.drain_delay(), JoinKey(path, "drainDelay"), issues);
}

}  // namespace mpsim::oci
