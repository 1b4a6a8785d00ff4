#include "sim/duration.h"

#include <cstdint>

namespace mpsim {
namespace {

// Longer spans are typos (a unit slip), not plans; the bound also keeps every
// sum below in range.
constexpr Duration kMaxDuration = 100 * 365 * 24 * kHour;
// Enough for any real spelling; keeps the exact fraction below in 128 bits.
constexpr int kMaxFractionDigits = 18;
constexpr const char* kUnitsHint = "; use us, ms, s, m or h (e.g. 250ms, 45s, 1m30s)";

struct Unit {
  std::string_view name;
  Duration size;
};
constexpr Unit kUnits[] = {
    {"h", kHour}, {"m", kMinute}, {"s", kSecond}, {"ms", kMillisecond}, {"us", kMicrosecond}};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string Quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

// One "<number><unit>" group being read from the front of `rest`.
class GroupReader {
 public:
  GroupReader(std::string_view text, std::string* error) : text_(text), error_(error) {}

  // Consumes one group from *rest and adds its length to *total.
  bool Read(std::string_view* rest, Duration* total) {
    std::string_view whole, fraction, unit;
    if (!Number(rest, &whole, &fraction) || !UnitName(rest, whole, fraction, &unit)) return false;
    const Unit* u = Find(unit);
    if (u == nullptr) return Fail("unknown unit '" + std::string(unit) + "' in " + Quoted(text_));
    Duration value = 0;
    if (!Scale(whole, fraction, u->size, &value) || value > kMaxDuration - *total) {
      return Fail(Quoted(text_) + " is too long (at most 100 years)");
    }
    *total += value;
    return true;
  }

 private:
  bool Fail(const std::string& why) {
    *error_ = why + kUnitsHint;
    return false;
  }

  static std::string_view TakeDigits(std::string_view* rest) {
    size_t n = 0;
    while (n < rest->size() && IsDigit((*rest)[n])) ++n;
    std::string_view digits = rest->substr(0, n);
    rest->remove_prefix(n);
    return digits;
  }

  bool Number(std::string_view* rest, std::string_view* whole, std::string_view* fraction) {
    const std::string_view at = *rest;
    *whole = TakeDigits(rest);
    if (whole->empty()) return Fail("expected a number at " + Quoted(at) + " in " + Quoted(text_));
    if (rest->empty() || rest->front() != '.') return true;
    rest->remove_prefix(1);
    *fraction = TakeDigits(rest);
    if (fraction->empty()) return Fail("expected digits after '.' in " + Quoted(text_));
    if (fraction->size() > kMaxFractionDigits) {
      return Fail("too many decimal places in " + Quoted(text_));
    }
    return true;
  }

  bool UnitName(std::string_view* rest, std::string_view whole, std::string_view fraction,
                std::string_view* unit) {
    size_t n = 0;
    while (n < rest->size() && IsLetter((*rest)[n])) ++n;
    *unit = rest->substr(0, n);
    rest->remove_prefix(n);
    if (!unit->empty()) return true;
    const std::string number =
        std::string(whole) + (fraction.empty() ? "" : "." + std::string(fraction));
    if (rest->empty()) return Fail("missing unit after " + number + " in " + Quoted(text_));
    return Fail("unexpected '" + std::string(1, rest->front()) + "' after " + number + " in " +
                Quoted(text_));
  }

  static const Unit* Find(std::string_view name) {
    for (const Unit& u : kUnits) {
      if (u.name == name) return &u;
    }
    return nullptr;
  }

  // whole.fraction * unit, rounded half up to a microsecond; false past the limit.
  static bool Scale(std::string_view whole, std::string_view fraction, Duration unit,
                    Duration* out) {
    Duration w = 0;
    for (const char c : whole) {
      w = w * 10 + (c - '0');
      if (w > kMaxDuration) return false;
    }
    if (w > kMaxDuration / unit) return false;
    unsigned __int128 num = 0, den = 1;
    for (const char c : fraction) {
      num = num * 10 + static_cast<unsigned>(c - '0');
      den *= 10;
    }
    const auto part =
        static_cast<Duration>((num * static_cast<unsigned>(unit) * 2 + den) / (2 * den));
    *out = w * unit + part;
    return *out <= kMaxDuration;
  }

  std::string_view text_;
  std::string* error_;
};

}  // namespace

bool ParseDuration(std::string_view text, Duration* out, std::string* error) {
  if (text == "0") {
    *out = 0;
    return true;
  }
  if (text.empty()) {
    *error = std::string("empty duration") + kUnitsHint;
    return false;
  }
  if (text.front() == '-') {
    *error = "negative duration " + Quoted(text) + "; durations are never negative";
    return false;
  }
  GroupReader reader(text, error);
  std::string_view rest = text;
  Duration total = 0;
  while (!rest.empty()) {
    if (!reader.Read(&rest, &total)) return false;
  }
  *out = total;
  return true;
}

std::string FormatDuration(Duration d) {
  if (d == 0) return "0s";
  std::string out;
  // Work in unsigned so that the most negative value has a magnitude too.
  uint64_t left = d < 0 ? 0 - static_cast<uint64_t>(d) : static_cast<uint64_t>(d);
  if (d < 0) out = "-";
  for (const Unit& u : kUnits) {
    const uint64_t size = static_cast<uint64_t>(u.size);
    if (left < size) continue;
    out += std::to_string(left / size);
    out += u.name;
    left %= size;
  }
  return out;
}

}  // namespace mpsim
