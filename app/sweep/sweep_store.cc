#include "app/sweep/sweep_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/report/atomic_file.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

bool ReadAll(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return true;
}

bool ParseUint(std::string_view s, uint64_t* out) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
}

// The metrics are the last cells of a line and never quoted.
bool ParseMetrics(std::string_view line, size_t count, std::vector<double>* out) {
  out->assign(count, std::numeric_limits<double>::quiet_NaN());
  for (size_t i = count; i-- > 0;) {
    const size_t comma = line.rfind(',');
    if (comma == std::string_view::npos) return false;
    const std::string_view cell = line.substr(comma + 1);
    line = line.substr(0, comma);
    if (cell.empty()) continue;
    auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), (*out)[i]);
    if (ec != std::errc() || ptr != cell.data() + cell.size()) return false;
  }
  return true;
}

// The first key in which two identities differ, for the error message.
std::string FirstDifference(const std::string& a, const std::string& b) {
  const Json ja = Json::parse(a, nullptr, false), jb = Json::parse(b, nullptr, false);
  if (ja.is_discarded() || jb.is_discarded()) return "the identity line";
  if (ja.value("shard", "") != jb.value("shard", "")) return "shard";
  for (const auto& [key, value] : ja["plan"].items()) {
    if (!jb["plan"].contains(key) || jb["plan"][key] != value) return key;
  }
  return "plan";
}

// Lines of `text`; a last line without its newline (cut short) is left out.
std::vector<std::string> WholeLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    lines.push_back(text.substr(start, nl - start));
  }
  return lines;
}

}  // namespace

std::string SweepCsvHeader(const SweepPlan& plan, const std::vector<std::string>& metrics) {
  std::string h = "point,seed_index,seed";
  for (const SweepParam& p : plan.params()) h += "," + CsvField(p.path);
  for (const std::string& m : metrics) h += "," + CsvField(m);
  return h;
}

std::string SweepCsvLine(const SweepPlan& plan, size_t run, const std::vector<std::string>& cells) {
  const size_t point = run / plan.seeds();
  const uint64_t index = run % plan.seeds();
  std::string line = std::to_string(point) + "," + std::to_string(index) + "," +
                     std::to_string(plan.Seed(point, index));
  const std::vector<size_t> at = plan.Coordinates(point);
  for (size_t i = 0; i < at.size(); ++i) line += "," + CsvField(plan.params()[i].values[at[i]]);
  for (const std::string& c : cells) line += "," + c;
  return line;
}

bool ParseSweepLine(const std::string& line, const SweepPlan& plan, size_t metric_count,
                    SweepRow* row, std::string* error) {
  const size_t c1 = line.find(','), c2 = line.find(',', c1 + 1);
  uint64_t point = 0, index = 0;
  if (c1 == std::string::npos || c2 == std::string::npos ||
      !ParseUint(std::string_view(line).substr(0, c1), &point) ||
      !ParseUint(std::string_view(line).substr(c1 + 1, c2 - c1 - 1), &index) ||
      point >= plan.points() || index >= plan.seeds() ||
      !ParseMetrics(line, metric_count, &row->metrics)) {
    *error = "not a run of this sweep: \"" + line.substr(0, 80) + "\"";
    return false;
  }
  row->run = point * plan.seeds() + index;
  row->line = line;
  return true;
}

bool ReadSweepCsv(const std::string& dir, const SweepPlan& plan, size_t metric_count,
                  const std::string& header, SweepRows* rows, std::string* error) {
  std::string text;
  if (!ReadAll(dir + "/sweep.csv", &text)) {
    *error = dir + "/sweep.csv: cannot read it";
    return false;
  }
  const std::vector<std::string> lines = WholeLines(text);
  if (lines.empty() || lines[0] != header) {
    *error = dir + "/sweep.csv: its columns are not those of this sweep";
    return false;
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    SweepRow row;
    if (!ParseSweepLine(lines[i], plan, metric_count, &row, error)) {
      *error = dir + "/sweep.csv:" + std::to_string(i + 1) + ": " + *error;
      return false;
    }
    (*rows)[row.run] = std::move(row);
  }
  return true;
}

SweepStore::SweepStore(std::string dir, std::string identity, std::string csv_header)
    : dir_(std::move(dir)), identity_(std::move(identity)), header_(std::move(csv_header)) {}

SweepStore::~SweepStore() {
  if (fd_ >= 0) ::close(fd_);
}

bool SweepStore::LoadFinished(const SweepPlan& plan, size_t metric_count, SweepRows* done,
                              std::string* error) {
  std::string text;
  if (!ReadAll(dir_ + "/sweep.json", &text)) return true;  // not finished: nothing to load
  const Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.contains("plan")) {
    *error = dir_ + "/sweep.json is not a sweep's output; choose another --out";
    return false;
  }
  const std::string theirs = Json{{"plan", j["plan"]}, {"shard", j.value("shard", "")}}.dump();
  if (theirs != identity_) {
    *error = dir_ + " holds another sweep (its " + FirstDifference(identity_, theirs) +
             " differs); choose another --out or remove it";
    return false;
  }
  return ReadSweepCsv(dir_, plan, metric_count, header_, done, error);
}

bool SweepStore::LoadJournal(const SweepPlan& plan, size_t metric_count, SweepRows* done,
                             std::string* error) {
  const std::string path = JournalPath(dir_);
  std::string text;
  if (!ReadAll(path, &text)) return WriteFileAtomic(path, identity_ + "\n", error);
  const std::vector<std::string> lines = WholeLines(text);
  if (lines.empty() || lines[0] != identity_) {
    *error = dir_ + " holds an unfinished sweep of another plan (its " +
             FirstDifference(identity_, lines.empty() ? "" : lines[0]) +
             " differs); choose another --out or remove it";
    return false;
  }
  size_t whole = lines[0].size() + 1;  // bytes of whole lines; beyond, a cut-short write
  for (size_t i = 1; i < lines.size(); ++i) {
    SweepRow row;
    if (!ParseSweepLine(lines[i], plan, metric_count, &row, error)) {
      *error = path + ":" + std::to_string(i + 1) + ": " + *error;
      return false;
    }
    (*done)[row.run] = std::move(row);
    whole += lines[i].size() + 1;
  }
  if (whole < text.size() && ::truncate(path.c_str(), static_cast<off_t>(whole)) != 0) {
    *error = "cannot repair " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool SweepStore::Open(const SweepPlan& plan, size_t metric_count, SweepRows* done,
                      std::string* error) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) {
    *error = "cannot create " + dir_ + ": " + ec.message();
    return false;
  }
  if (!LoadFinished(plan, metric_count, done, error)) return false;
  if (!LoadJournal(plan, metric_count, done, error)) return false;
  fd_ = ::open(JournalPath(dir_).c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) *error = "cannot open " + JournalPath(dir_) + ": " + std::strerror(errno);
  return fd_ >= 0;
}

bool SweepStore::Append(const SweepRow& row, std::string* error) {
  const std::string text = row.line + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  // One write: with O_APPEND the line lands whole or (killed mid-way) as a
  // tail without its newline, which Open drops.
  if (::write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    *error = "cannot append to " + JournalPath(dir_) + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool SweepStore::Finish(const SweepRows& rows, const std::string& json, std::string* error) {
  std::string csv = header_ + "\n";
  for (const auto& [run, row] : rows) csv += row.line + "\n";
  if (!WriteFileAtomic(dir_ + "/sweep.csv", csv, error)) return false;
  if (!WriteFileAtomic(dir_ + "/sweep.json", json, error)) return false;
  std::error_code ec;
  fs::remove(JournalPath(dir_), ec);
  return true;
}

}  // namespace mpsim
