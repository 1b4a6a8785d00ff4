#include "app/sweep/sweep_plan.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "sim/duration.h"
#include "sim/random.h"

namespace mpsim {
namespace {

// Splits on commas outside [] and {}, so YAML lists and maps stay whole.
std::vector<std::string> SplitItems(const std::string& text) {
  std::vector<std::string> items(1);
  int depth = 0;
  for (char c : text) {
    depth += (c == '[' || c == '{') - (c == ']' || c == '}');
    if (c == ',' && depth == 0) {
      items.emplace_back();
    } else {
      items.back() += c;
    }
  }
  return items;
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool ParseNumber(const std::string& s, double* out) {
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, *out);
  return !s.empty() && ec == std::errc() && ptr == end && std::isfinite(*out);
}

bool IsInteger(double v) { return std::floor(v) == v && std::fabs(v) < 1e15; }

// Shortest text that reads back as the same double ("100", "0.25").
std::string FormatNumber(double v) {
  char buf[32];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, ptr);
}

std::string FormatG12(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

struct Range {
  double from, to, step;
  bool log;  // step is a factor
};

// "A..B:STEP" or "A..B:xF"; false with *error when the text has ".." but is
// not a well-formed range.
bool ParseRange(const std::string& item, Range* r, std::string* error) {
  const size_t dots = item.find("..");
  const size_t colon = item.find(':', dots);
  if (colon == std::string::npos) {
    *error = "range \"" + item + "\" needs a step: A..B:STEP or A..B:xFACTOR";
    return false;
  }
  std::string step = item.substr(colon + 1);
  r->log = !step.empty() && step[0] == 'x';
  if (r->log) step.erase(0, 1);
  if (!ParseNumber(item.substr(0, dots), &r->from) ||
      !ParseNumber(item.substr(dots + 2, colon - dots - 2), &r->to) ||
      !ParseNumber(step, &r->step)) {
    *error = "range \"" + item + "\": expected numbers, as in 100..1000:100 or 100..10000:x10";
    return false;
  }
  if (r->to < r->from) *error = "range \"" + item + "\" ends before it starts";
  if (!r->log && r->step <= 0) *error = "range \"" + item + "\": the step must be above 0";
  if (r->log && (r->step <= 1 || r->from <= 0)) {
    *error = "range \"" + item + "\": a log range needs a start above 0 and a factor above 1";
  }
  return error->empty();
}

// Appends the values of a range; each is computed from the start, not
// accumulated, so that 0..1:0.1 ends on 1 and not on 0.9999999.
bool ExpandRange(const Range& r, std::vector<std::string>* out, std::string* error) {
  const bool integers = IsInteger(r.from) && IsInteger(r.to) && (r.log || IsInteger(r.step));
  const double slack = 1e-9 * std::max(1.0, std::fabs(r.to));
  std::string last;
  for (size_t k = 0;; ++k) {
    double v = r.log ? r.from * std::pow(r.step, static_cast<double>(k))
                     : r.from + r.step * static_cast<double>(k);
    if (v > r.to + slack) break;
    // 12 digits: 0.1 * 3 reads "0.3", not "0.30000000000000004".
    v = integers ? std::round(v) : std::stod(FormatG12(v));
    if (out->size() >= kMaxSweepValues) {
      *error = "more than " + std::to_string(kMaxSweepValues) + " values";
      return false;
    }
    std::string text = FormatNumber(v);
    if (text != last) out->push_back(text);  // rounding can repeat a value
    last = text;
  }
  return true;
}

// Every value as a number (a duration in seconds), or nothing.
std::optional<std::vector<double>> NumericValues(const std::vector<std::string>& values) {
  std::vector<double> xs;
  for (const std::string& v : values) {
    double x = 0;
    Duration d = 0;
    std::string ignored;
    if (ParseNumber(v, &x)) {
      xs.push_back(x);
    } else if (ParseDuration(v, &d, &ignored)) {
      xs.push_back(ToSeconds(d));
    } else {
      return std::nullopt;
    }
  }
  return xs;
}

}  // namespace

SweepParam MakeSweepParam(std::string path, std::vector<std::string> values) {
  SweepParam p{std::move(path), std::move(values), std::nullopt};
  p.numeric = NumericValues(p.values);
  return p;
}

bool ParseSweepParam(const std::string& arg, SweepParam* out, std::string* error) {
  const std::string where = "--set " + arg + ": ";
  const size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) {
    *error = where + "expected PATH=V1,V2,... (e.g. spec.machinePools[0].replicas=100,200)";
    return false;
  }
  out->path = arg.substr(0, eq);
  out->values.clear();
  for (const std::string& raw : SplitItems(arg.substr(eq + 1))) {
    const std::string item = Trim(raw);
    std::string err;
    Range r;
    if (item.empty()) {
      err = "an empty value (two commas in a row, or a comma at an end)";
    } else if (item.find("..") == std::string::npos) {
      out->values.push_back(item);
    } else if (ParseRange(item, &r, &err)) {
      ExpandRange(r, &out->values, &err);
    }
    if (out->values.size() > kMaxSweepValues) err = "more than 10000 values";
    if (!err.empty()) {
      *error = where + err;
      return false;
    }
  }
  out->numeric = NumericValues(out->values);
  return true;
}

bool ParseShard(const std::string& text, size_t* index, size_t* count, std::string* error) {
  const size_t slash = text.find('/');
  double i = -1, n = -1;
  if (slash == std::string::npos || !ParseNumber(text.substr(0, slash), &i) ||
      !ParseNumber(text.substr(slash + 1), &n) || !IsInteger(i) || !IsInteger(n) || i < 0 ||
      n < 1 || n > 10000 || i >= n) {
    *error = "--shard " + text + ": expected I/N with 0 <= I < N <= 10000, e.g. 0/4";
    return false;
  }
  *index = static_cast<size_t>(i);
  *count = static_cast<size_t>(n);
  return true;
}

SweepPlan::SweepPlan(std::vector<SweepParam> params, uint64_t seeds, uint64_t root_seed)
    : params_(std::move(params)), seeds_(seeds), root_seed_(root_seed), points_(1) {
  for (const SweepParam& p : params_) points_ *= p.values.size();
}

bool SweepPlan::Check(const std::vector<SweepParam>& params, std::string* error) {
  double points = 1;
  for (const SweepParam& p : params) points *= static_cast<double>(p.values.size());
  if (points > static_cast<double>(kMaxSweepPoints)) {
    *error = "--set: the lists make " + FormatNumber(points) + " points; at most " +
             std::to_string(kMaxSweepPoints) + " are allowed";
    return false;
  }
  return true;
}

std::vector<size_t> SweepPlan::Coordinates(size_t point) const {
  std::vector<size_t> at(params_.size());
  for (size_t i = params_.size(); i-- > 0;) {
    at[i] = point % params_[i].values.size();
    point /= params_[i].values.size();
  }
  return at;
}

std::vector<std::string> SweepPlan::Overrides(size_t point) const {
  std::vector<std::string> out;
  const std::vector<size_t> at = Coordinates(point);
  for (size_t i = 0; i < params_.size(); ++i) {
    out.push_back(params_[i].path + "=" + params_[i].values[at[i]]);
  }
  return out;
}

uint64_t SweepPlan::Seed(size_t point, uint64_t seed_index) const {
  std::string name = "sweep";
  for (const std::string& o : Overrides(point)) name += "/" + o;
  name += "/seed-" + std::to_string(seed_index);
  return StreamFor(root_seed_, name).Next();
}

std::vector<size_t> SweepPlan::ShardRuns(size_t index, size_t count) const {
  std::vector<size_t> out;
  for (size_t r = index; r < runs(); r += count) out.push_back(r);
  return out;
}

}  // namespace mpsim
