#include "app/calibrate/rfc3339.h"

namespace mpsim::calibrate {
namespace {

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
// (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `width` digits at *pos.
bool Digits(std::string_view s, size_t* pos, int width, int64_t* out) {
  if (*pos + width > s.size()) return false;
  int64_t v = 0;
  for (int i = 0; i < width; ++i) {
    const char c = s[*pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *pos += width;
  *out = v;
  return true;
}

bool Expect(std::string_view s, size_t* pos, char c) {
  if (*pos >= s.size() || s[*pos] != c) return false;
  ++*pos;
  return true;
}

// ".ffffff": microseconds, further digits dropped.
bool RfcFraction(std::string_view s, size_t* pos, int64_t* micros) {
  *micros = 0;
  if (*pos >= s.size() || s[*pos] != '.') return true;
  ++*pos;
  int digits = 0;
  int64_t scale = 100000;
  while (*pos < s.size() && s[*pos] >= '0' && s[*pos] <= '9') {
    if (scale > 0) *micros += (s[*pos] - '0') * scale;
    scale /= 10;
    ++*pos;
    ++digits;
  }
  return digits > 0;
}

// "Z" or "+hh:mm"/"-hh:mm": the offset from UTC in seconds.
bool RfcZone(std::string_view s, size_t* pos, int64_t* offset_s) {
  if (*pos < s.size() && (s[*pos] == 'Z' || s[*pos] == 'z')) {
    ++*pos;
    *offset_s = 0;
    return true;
  }
  if (*pos >= s.size() || (s[*pos] != '+' && s[*pos] != '-')) return false;
  const int64_t sign = s[(*pos)++] == '-' ? -1 : 1;
  int64_t hh = 0, mm = 0;
  if (!Digits(s, pos, 2, &hh) || !Expect(s, pos, ':') || !Digits(s, pos, 2, &mm)) return false;
  if (hh > 23 || mm > 59) return false;
  *offset_s = sign * (hh * 3600 + mm * 60);
  return true;
}

}  // namespace

bool ParseRfc3339(std::string_view s, int64_t* micros) {
  size_t pos = 0;
  int64_t y, mo, d, h, mi, sec, frac, offset;
  if (!Digits(s, &pos, 4, &y) || !Expect(s, &pos, '-') || !Digits(s, &pos, 2, &mo) ||
      !Expect(s, &pos, '-') || !Digits(s, &pos, 2, &d)) {
    return false;
  }
  if (pos >= s.size() || (s[pos] != 'T' && s[pos] != 't')) return false;
  ++pos;
  if (!Digits(s, &pos, 2, &h) || !Expect(s, &pos, ':') || !Digits(s, &pos, 2, &mi) ||
      !Expect(s, &pos, ':') || !Digits(s, &pos, 2, &sec) || !RfcFraction(s, &pos, &frac) ||
      !RfcZone(s, &pos, &offset) || pos != s.size()) {
    return false;
  }
  // A leap second (":60") is read as the next second's start.
  if (mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(y, mo) || h > 23 || mi > 59 || sec > 60) {
    return false;
  }
  const int64_t secs = DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset;
  *micros = secs * 1000000 + frac;
  return true;
}

}  // namespace mpsim::calibrate
