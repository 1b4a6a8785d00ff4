#include "app/calibrate/overlay_writer.h"

#include <algorithm>
#include <cmath>

#include "api/time.h"
#include "sim/duration.h"

namespace mpsim::calibrate {
namespace {

// A duration of `seconds` to the millisecond, at least 1 ms (a lognormal's
// median must be above 0).
std::string OverlayDuration(double seconds) {
  const Duration ms = std::max<Duration>(1, std::llround(seconds * 1000));
  return FormatDuration(ms * kMillisecond);
}

YAML::Node LognormalNode(const DelayFit& fit) {
  const FamilyResult* ln = fit.Find(Family::kLognormal);
  YAML::Node n(YAML::NodeType::Map);
  n.SetStyle(YAML::EmitterStyle::Flow);
  n["dist"] = "lognormal";
  n["median"] = OverlayDuration(ln->median);
  n["p99"] = OverlayDuration(ln->p99);
  return n;
}

const DelayFit* Fitted(const Calibration& c, const std::string& key) {
  const DelayCalibration* d = c.Find(key);
  return d != nullptr && d->fitted ? &d->fit : nullptr;
}

}  // namespace

YAML::Node FittedWorkloadCluster(const Calibration& c) {
  YAML::Node wc(YAML::NodeType::Map);
  if (const DelayFit* f = Fitted(c, "nodeRegistration")) wc["nodeRegistration"] = LognormalNode(*f);
  if (const DelayFit* f = Fitted(c, "nodeReady")) wc["nodeReady"] = LognormalNode(*f);
  if (const DelayFit* f = Fitted(c, "ccmDelay")) {
    wc["providerID"]["setBy"] = "cloud-controller-manager";
    wc["providerID"]["ccmDelay"] = LognormalNode(*f);
  } else if (c.provider_id_by_kubelet > 0) {
    wc["providerID"]["setBy"] = "kubelet";
  }
  return wc;
}

std::string OverlayText(const Calibration& c) {
  YAML::Node spec(YAML::NodeType::Map);
  YAML::Node wc = FittedWorkloadCluster(c);
  if (wc.size() > 0) spec["workloadCluster"] = wc;
  YAML::Node doc(YAML::NodeType::Map);
  doc["spec"] = spec;
  YAML::Emitter out;
  out << YAML::Comment("Fitted by mpsim calibrate from " + std::to_string(c.nodes) + " Nodes and " +
                       std::to_string(c.instances) + " instances; delays as lognormals.")
      << YAML::Newline << doc;
  return std::string(out.c_str()) + "\n";
}

}  // namespace mpsim::calibrate
