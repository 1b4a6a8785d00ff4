#include "models/kapsule/provider_id.h"

#include <cstdint>

namespace mpsim::kapsule {
namespace {

void AppendHex(uint64_t bits, int digits, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i) out->push_back(kHex[(bits >> (4 * i)) & 0xf]);
}

}  // namespace

std::string NewUuid(Rng* rng) {
  uint64_t hi = rng->Next();
  uint64_t lo = rng->Next();
  hi = (hi & ~0xf000ULL) | 0x4000ULL;        // version 4
  lo = (lo & ~(3ULL << 62)) | (2ULL << 62);  // RFC 4122 variant
  std::string out;
  out.reserve(36);
  AppendHex(hi >> 32, 8, &out);
  out.push_back('-');
  AppendHex(hi >> 16, 4, &out);
  out.push_back('-');
  AppendHex(hi, 4, &out);
  out.push_back('-');
  AppendHex(lo >> 48, 4, &out);
  out.push_back('-');
  AppendHex(lo, 12, &out);
  return out;
}

std::string InstanceProviderId(const std::string& zone, const std::string& uuid) {
  return "scaleway://instance/" + zone + "/" + uuid;
}

}  // namespace mpsim::kapsule
