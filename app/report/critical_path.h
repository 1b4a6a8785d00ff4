// The critical path of a pool's convergence: the chain of waits, each the one
// its successor waited for last, from the spec change to convergence (or to
// the end of the run), in words a Cluster API developer reads.
#pragma once

#include <string>
#include <vector>

#include "sim/recorder.h"

namespace mpsim {

struct PathStep {
  Time from = 0;
  Time to = 0;
  std::string kind;    // machine-readable: "launch", "register", "requeue" ... (see .cc)
  std::string object;  // the instance or Node, "" for the pool
  std::string what;    // plain words: "the cloud launching instance i-3 (Pending -> InService)"
};

struct CriticalPath {
  Time start = 0;  // the last spec change (creation, scale, upgrade, deletion)
  Time end = 0;    // convergence, or the end of the run
  bool converged = false;
  std::vector<PathStep> steps;  // in time order; contiguous; zero-length waits left out
};

struct PathQuery {
  std::string pool;
  Time start = 0;
  Time end = 0;
  bool converged = false;
  bool deleted = false;              // the pool converged by going away
  std::string not_converged_reason;  // the last step's words when !converged
};

// The critical path of `q.pool` in a run's log. The steps' durations sum to
// q.end - q.start: with every edge weighted by its wait, each chain from the
// start is a longest path, and this is the one made of binding waits.
CriticalPath ComputeCriticalPath(const Recorder& rec, const PathQuery& q);

}  // namespace mpsim
