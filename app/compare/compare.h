// `mpsim compare A B`: two runs' summaries side by side, per pool and metric,
// with the delta and ratio of B against A, as aligned text or as JSON.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace mpsim {

struct CompareArgs {
  std::string a;  // a result directory or a summary.json file
  std::string b;
  bool json = false;
};

// One metric of one pool ("" for the run as a whole); absent when a side
// lacks it (a pool only in one run, a pool that never converged).
struct CompareRow {
  std::string pool;
  std::string metric;
  std::optional<double> a;
  std::optional<double> b;
};

// The rows for two summary.json texts, run metrics first, then pools by
// name. False with *error set when a text is not a summary.json.
bool CompareSummaries(const std::string& a_json, const std::string& b_json,
                      std::vector<CompareRow>* rows, std::string* error);

// A value as the tables print it ("-" when absent).
std::string FormatCell(const std::optional<double>& v);

void PrintCompareTable(std::ostream& os, const std::vector<CompareRow>& rows);
std::string CompareJson(const std::string& a, const std::string& b,
                        const std::vector<CompareRow>& rows);

// Exit status 0, or 2 (one message on stderr) when A or B cannot be read.
int CompareCommand(const CompareArgs& args);

}  // namespace mpsim
