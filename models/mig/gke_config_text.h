// The GKE node-pool fields CAPG diffs besides Kubernetes labels and taints
// (docs/reference/providers.md §3.6.2 "config diff"), as the text a scenario file and a
// `setInfraPoolSpec` edit give them in: GCE resource labels "k=v,k2=v2",
// network tags "a,b", sysctls "net.core.somaxconn=1024,...", a cgroup mode and
// node locations "us-central1-a,us-central1-b".
// Validation in sim/ and the GKE model read the same thing.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mpsim {

// GCE labels of the pool's VMs (not the Nodes' Kubernetes labels), and the
// node pool's sysctls: both maps, compared as maps.
using ResourceLabels = std::map<std::string, std::string>;
using Sysctls = std::map<std::string, std::string>;

// Parses "k=v,k2=v2" ("" is none). Keys: 1-63 lowercase letters, digits, '_'
// or '-', starting with a letter; values: the same characters, 0-63 of them
// (GCE label rules). On a bad item returns false and says why in `error`.
bool ParseResourceLabelsText(std::string_view text, ResourceLabels* out, std::string* error);

// Parses "a,b" ("" is none) in order. Each tag is an RFC 1035 name: 1-63
// lowercase letters, digits or '-', starting with a letter, not ending with
// '-'; no tag twice.
bool ParseNetworkTagsText(std::string_view text, std::vector<std::string>* out, std::string* error);

// Parses "name=value,..." ("" is none). Names are dotted lowercase kernel
// parameters (letters, digits, '_', '.'; starting with a letter); values are
// non-empty and hold no ','. Which parameters GKE accepts is its own
// check and is not repeated.
bool ParseSysctlsText(std::string_view text, Sysctls* out, std::string* error);

// Parses "zone,..." (CAPG spec.nodeLocations) in order: at least one zone,
// each a GCE zone name (1-63 lowercase letters, digits or '-', starting with a
// letter, not ending with '-', as us-central1-a), none twice.
bool ParseNodeLocationsText(std::string_view text, std::vector<std::string>* out,
                            std::string* error);

// "" (GKE's default, CGROUP_MODE_UNSPECIFIED), "CGROUP_MODE_V1" or
// "CGROUP_MODE_V2", as gcloud's system config file spells them.
bool IsCgroupMode(std::string_view mode);

// The inverse forms: maps in key order, tags in their order.
std::string MapText(const std::map<std::string, std::string>& m);
std::string ListText(const std::vector<std::string>& items);

}  // namespace mpsim
