// timeline.csv read back (for `mpsim report DIR`): the rows, and the two
// series scripts/plot.py draws from them: a pool's replicas over time and
// its per-node matching latencies.
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace mpsim {

// One row of timeline.csv as read back (sim/recorder.h's TimelineRow is the
// one a run records): time_s,object_kind,object,field,from,to.
struct CsvTimelineRow {
  double time_s = 0;
  std::string kind;
  std::string object;
  std::string field;
  std::string from;
  std::string to;
};

// Reads timeline.csv (header line first, fields quoted as app/report/outputs.cc
// writes them), leaving out the Controller rows (requeues: most of a long
// timeline, and nothing a report draws). False with *error naming the line.
bool ReadTimelineCsv(std::istream& in, std::vector<CsvTimelineRow>* rows, std::string* error);

// A value from `time_s` on.
struct StepPoint {
  double time_s = 0;
  double value = 0;
};

// The MachinePool `pool`'s `field` (spec.replicas, readyReplicas, ...) as it
// changed, starting from 0 at t=0; an empty `to` counts as 0.
std::vector<StepPoint> PoolSeries(const std::vector<CsvTimelineRow>& rows, const std::string& pool,
                                  const std::string& field);

// Per node of `pool`, sorted: the time its nodeRef appeared minus the time its
// providerID entered the InfraMachinePool's list (as scripts/plot.py works it out).
std::vector<double> MatchingLatencies(const std::vector<CsvTimelineRow>& rows,
                                      const std::string& pool);

}  // namespace mpsim
