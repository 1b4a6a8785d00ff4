#include "api/quantity.h"

#include <cctype>
#include <cmath>
#include <string>

namespace mpsim {
namespace {

struct Suffix {
  std::string_view text;
  int base;  // 2 or 10
  int exponent;
};

constexpr Suffix kSuffixes[] = {
    {"Ki", 2, 10}, {"Mi", 2, 20}, {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50}, {"Ei", 2, 60},
    {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"", 10, 0},   {"k", 10, 3},  {"M", 10, 6},
    {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18},
};

// The length of the leading "digits[.digits]" of `text`, 0 if none.
size_t NumberLength(std::string_view text) {
  size_t i = 0, digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  }
  return digits == 0 ? 0 : i;
}

// The multiplier `suffix` stands for, or false if it is none.
bool Multiplier(std::string_view suffix, long double* out) {
  if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    int exp = 0;
    for (size_t i = 1; i < suffix.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(suffix[i])) || exp > 100) return false;
      exp = exp * 10 + (suffix[i] - '0');
    }
    *out = std::pow(10.0L, exp);
    return true;
  }
  for (const Suffix& s : kSuffixes) {
    if (s.text == suffix) {
      *out = std::pow(static_cast<long double>(s.base), s.exponent);
      return true;
    }
  }
  return false;
}

}  // namespace

bool ParseQuantityMilli(std::string_view text, int64_t* milli) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  const size_t n = NumberLength(text);
  long double multiplier = 0;
  if (n == 0 || !Multiplier(text.substr(n), &multiplier)) return false;
  const long double value = std::stold(std::string(text.substr(0, n))) * multiplier * 1000.0L;
  const long double up = std::ceil(value - 1e-9L);  // MilliValue rounds up
  if (up > static_cast<long double>(INT64_MAX)) return false;
  *milli = static_cast<int64_t>(up);
  return true;
}

}  // namespace mpsim
