// The delays `mpsim calibrate` can see in the dumps, one sample per machine,
// and the rows it could not use with why:
//   nodeRegistration  instance launch (LaunchTime, timeCreated, creationTimestamp)
//                     -> Node metadata.creationTimestamp, joined by providerID
//   nodeReady         Node creationTimestamp -> Ready condition's lastTransitionTime
//   ccmDelay          Node creationTimestamp -> the time of the managedFields entry that
//                     owns spec.providerID, when its manager is not the kubelet
// kubectl prints whole seconds (docs/reference/cluster-dumps.md §1.2), so a delay of 0 s means
// "under a second": it is counted as 0.5 s (half the resolution), never as 0, which no lognormal,
// gamma or Weibull can draw.
#pragma once

#include <string>
#include <vector>

#include "app/calibrate/dump_rows.h"

namespace mpsim::calibrate {

// Rows left out of one delay for one reason.
struct UnusedRows {
  std::string why;  // e.g. "instance without a Node"
  int count = 0;
  std::string example;  // the first such row's name
};

struct DelaySamples {
  std::string key;   // the scenario key, e.g. "nodeRegistration"
  std::string what;  // e.g. "instance launch -> Node registered"
  std::vector<double> seconds;
  int under_resolution = 0;        // samples of 0 s counted as 0.5 s
  std::vector<UnusedRows> unused;  // in the order the reasons were first met
};

struct MeasuredDelays {
  DelaySamples registration;
  DelaySamples ready;
  DelaySamples ccm;
  int provider_id_by_kubelet = 0;  // Nodes whose providerID the kubelet set
};

MeasuredDelays MeasureDelays(const Dumps& dumps);

}  // namespace mpsim::calibrate
