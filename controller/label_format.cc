#include "controller/label_format.h"

#include <cctype>
#include <cstdint>

namespace mpsim {
namespace {

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

uint32_t Fnv32a(const std::string& s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

// base64.URLEncoding without padding of the 4 big-endian bytes of h.
std::string Base64Url(uint32_t h) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const uint8_t bytes[4] = {static_cast<uint8_t>(h >> 24), static_cast<uint8_t>(h >> 16),
                            static_cast<uint8_t>(h >> 8), static_cast<uint8_t>(h)};
  std::string out;
  uint32_t buf = 0;
  int bits = 0;
  for (uint8_t b : bytes) {
    buf = (buf << 8) | b;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(buf >> bits) & 0x3f];
    }
  }
  if (bits > 0) out += kAlphabet[(buf << (6 - bits)) & 0x3f];
  return out;
}

}  // namespace

bool IsValidLabelValue(const std::string& s) {
  if (s.empty()) return true;
  if (s.size() > 63 || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

std::string MustFormatValue(const std::string& s) {
  if (IsValidLabelValue(s)) return s;
  return "hash_" + Base64Url(Fnv32a(s)) + "_z";
}

}  // namespace mpsim
