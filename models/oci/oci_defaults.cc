// Defaults of the `oci` and `oke` provider blocks, with their sources
// (docs/defaults.md shows the same rows).
#include "models/oci/oci_schema.h"

namespace mpsim::oci {
namespace {

constexpr const char* kNoDurations =
    "assumption: CAPOCI and the OCI docs publish no operation durations "
    "(docs/reference/oci-scaleway.md §1.6, §2.5; the e2e suite waits up to 30 min)";

}  // namespace

std::vector<scenario::DefaultEntry> Defaults() {
  return {
      {"spec.machinePools[].provider.oci.zones", "[AD-1]", "",
       "mpsim choice: one availability domain", "-"},
      {"spec.machinePools[].provider.oci.capacity", "{}", "", "unlimited in every domain", "-"},
      {"spec.machinePools[].provider.oci.launchDelay", "{dist: lognormal, median: 60s, p99: 180s}",
       "", kNoDurations, "L"},
      {"spec.machinePools[].provider.oci.deleteDelay", "{dist: lognormal, median: 45s, p99: 150s}",
       "", kNoDurations, "L"},
      {"spec.machinePools[].provider.oci.region", "iad", "",
       "mpsim choice: a region key of the OCID examples (docs/reference/oci-scaleway.md §6.1)",
       "-"},
      {"spec.machinePools[].provider.oci.managedCluster", "false", "",
       "an OCICluster, whose providerIDs are oci://<OCID> (docs/reference/oci-scaleway.md §1.3)",
       "-"},
  };
}

std::vector<scenario::DefaultEntry> OkeDefaults() {
  return {
      {"spec.machinePools[].provider.oke.zones", "[AD-1]", "",
       "mpsim choice: one availability domain", "-"},
      {"spec.machinePools[].provider.oke.capacity", "{}", "", "unlimited in every domain", "-"},
      {"spec.machinePools[].provider.oke.launchDelay", "{dist: lognormal, median: 90s, p99: 300s}",
       "", kNoDurations, "L"},
      {"spec.machinePools[].provider.oke.deleteDelay", "{dist: lognormal, median: 45s, p99: 150s}",
       "", kNoDurations, "L"},
      {"spec.machinePools[].provider.oke.region", "iad", "",
       "mpsim choice: a region key of the OCID examples (docs/reference/oci-scaleway.md §6.1)",
       "-"},
      {"spec.machinePools[].provider.oke.isNodeCyclingEnabled", "false", "",
       "CAPOCI sends nodePoolCyclingDetails only when set, and OKE cycles no node without it "
       "(docs/reference/oci-scaleway.md §2.4)",
       "M"},
      {"spec.machinePools[].provider.oke.maximumSurge", "1", "",
       "OKE's server-side default, per CAPOCI's field comment and the terraform-oci-oke guide "
       "(docs/reference/oci-scaleway.md §2.4)",
       "M"},
      {"spec.machinePools[].provider.oke.maximumUnavailable", "0", "",
       "OKE's server-side default, as maximumSurge (docs/reference/oci-scaleway.md §2.4)", "M"},
      {"spec.machinePools[].provider.oke.evictionGraceDuration", "60m", "",
       "OKE's default PT60M per CAPOCI's field comment (docs/reference/oci-scaleway.md §2.4)", "M"},
      {"spec.machinePools[].provider.oke.drainDelay", "{dist: constant, value: 30s}", "",
       "assumption: evicting a cycled node's pods; unpublished", "L"},
  };
}

}  // namespace mpsim::oci
