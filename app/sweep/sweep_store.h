// Where a sweep keeps its runs: sweep.csv and sweep.json when it is finished,
// and a journal of finished runs while it is not, so that it can be resumed.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "app/sweep/sweep_plan.h"

namespace mpsim {

// One finished run, as its line of sweep.csv.
struct SweepRow {
  size_t run = 0;               // point * seeds + seed_index
  std::string line;             // without the newline
  std::vector<double> metrics;  // NaN where the cell is empty
};
using SweepRows = std::map<size_t, SweepRow>;  // by run: the order of sweep.csv

// The header of sweep.csv: point,seed_index,seed, each param path, each metric.
std::string SweepCsvHeader(const SweepPlan& plan, const std::vector<std::string>& metrics);
// The sweep.csv line of a run; `cells` as MetricCells gives them.
std::string SweepCsvLine(const SweepPlan& plan, size_t run, const std::vector<std::string>& cells);
// Reads a line back. False with *error set when it is not a line of `plan`
// with `metric_count` metrics.
bool ParseSweepLine(const std::string& line, const SweepPlan& plan, size_t metric_count,
                    SweepRow* row, std::string* error);

// The output directory of one sweep (or one shard of it). The journal
// (.sweep.journal) holds an identity line and then finished runs' lines, each
// appended with one write; a line cut short by a kill is dropped on reopening.
class SweepStore {
 public:
  // `identity` is the one-line JSON of the plan and shard (sweep.json's
  // "plan" and "shard"); a directory holding another identity is refused.
  SweepStore(std::string dir, std::string identity, std::string csv_header);
  ~SweepStore();
  SweepStore(const SweepStore&) = delete;
  SweepStore& operator=(const SweepStore&) = delete;

  // Reads the runs finished earlier (from sweep.csv if the sweep ended, and
  // from the journal) into *done and opens the journal for appending.
  bool Open(const SweepPlan& plan, size_t metric_count, SweepRows* done, std::string* error);
  // Appends a finished run to the journal. Thread-safe.
  bool Append(const SweepRow& row, std::string* error);
  // Writes sweep.csv, then sweep.json (whose presence means "finished"), and
  // removes the journal.
  bool Finish(const SweepRows& rows, const std::string& json, std::string* error);

  static std::string JournalPath(const std::string& dir) { return dir + "/.sweep.journal"; }

 private:
  bool LoadFinished(const SweepPlan& plan, size_t metric_count, SweepRows* done,
                    std::string* error);
  bool LoadJournal(const SweepPlan& plan, size_t metric_count, SweepRows* done, std::string* error);

  const std::string dir_;
  const std::string identity_;
  const std::string header_;
  std::mutex mu_;
  int fd_ = -1;  // the journal, O_APPEND; GUARDED_BY(mu_)
};

// Reads sweep.csv of a finished directory into *rows. False with *error set.
bool ReadSweepCsv(const std::string& dir, const SweepPlan& plan, size_t metric_count,
                  const std::string& header, SweepRows* rows, std::string* error);

}  // namespace mpsim
