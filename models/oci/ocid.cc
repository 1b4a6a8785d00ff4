#include "models/oci/ocid.h"

namespace mpsim::oci {
namespace {

// The unique part of the instance OCID the OCI documentation shows: 60
// characters of lowercase base32 (docs/reference/oci-scaleway.md §6.1).
constexpr int kUniqueLength = 60;
constexpr char kBase32[] = "abcdefghijklmnopqrstuvwxyz234567";

}  // namespace

std::string RandomAlnum(int n, Rng* rng) {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string out(static_cast<size_t>(n), 'a');
  for (char& c : out) c = kAlphabet[rng->Below(sizeof kAlphabet - 1)];
  return out;
}

std::string NewOcid(const std::string& type, const std::string& region, Rng* rng) {
  std::string unique(kUniqueLength, 'a');
  for (char& c : unique) c = kBase32[rng->Below(sizeof kBase32 - 1)];
  return "ocid1." + type + ".oc1." + region + "." + unique;
}

}  // namespace mpsim::oci
