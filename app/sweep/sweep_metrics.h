// The metrics a sweep records of each run: every number of summary.json, per
// pool ("mp-0.time_to_converge_s"), for the whole run ("events_processed")
// and, when the scenario has pods, for them ("pods.scheduling_latency_p99_s").
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.pb.h"
#include "sim/proto/summary.pb.h"

namespace mpsim {

// The metric names of a scenario's runs, in column order: run metrics, then
// each pool's in the order of spec.machinePools.
std::vector<std::string> MetricNames(const proto::Scenario& scenario);

// The values of MetricNames(scenario) for one run, as CSV cells: the shortest
// text that reads back as the same double; empty where the summary has no
// value (time_to_converge_s of a pool that did not converge, a pool missing).
std::vector<std::string> MetricCells(const proto::Scenario& scenario,
                                     const proto::RunSummary& summary);

}  // namespace mpsim
