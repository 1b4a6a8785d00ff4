// Plain words for one step of a critical path: what the effect waited for,
// with the faults seen meanwhile and why a controller acted when it did.
#pragma once

#include <string>
#include <vector>

#include "app/report/causal_graph.h"
#include "sim/recorder.h"

namespace mpsim {

// What a pool's controllers did, for explaining a controller's delay.
struct ControllerLog {
  std::string infra;  // the InfraMachinePool controller, e.g. "testmachinepool"
  std::vector<ReconcileSpan> machinepool;  // the pool's reconciles, by start time
  std::vector<ReconcileSpan> infra_spans;  // the InfraMachinePool's reconciles, by start time
};

struct StepWords {
  std::string kind;  // "launch", "register", "nodeRef", "requeue" ...
  std::string what;
};

// Words for the wait from `cause` to `effect` in `g`. `end_words` names the
// last step when the pool never converged.
StepWords DescribeStep(const CausalGraph& g, const ControllerLog& log, const Moment& cause,
                       const Moment& effect, const std::string& end_words);

// "MachinePool", or a provider controller's kind as its registration writes
// it (ControllerWords); else the controller's name.
std::string ControllerTitle(const std::string& controller);

}  // namespace mpsim
