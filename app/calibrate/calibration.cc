#include "app/calibrate/calibration.h"

namespace mpsim::calibrate {

const DelayCalibration* Calibration::Find(const std::string& key) const {
  for (const DelayCalibration& d : delays) {
    if (d.samples.key == key) return &d;
  }
  return nullptr;
}

Calibration Calibrate(const Dumps& dumps) {
  MeasuredDelays m = MeasureDelays(dumps);
  Calibration out{.nodes = dumps.nodes.size(),
                  .instances = dumps.instances.size(),
                  .pools = dumps.pools.size(),
                  .provider_id_by_kubelet = m.provider_id_by_kubelet};
  for (DelaySamples* s : {&m.registration, &m.ready, &m.ccm}) {
    DelayCalibration d;
    d.fitted = FitDelay(s->seconds, &d.fit, &d.not_fitted);
    d.samples = std::move(*s);
    out.delays.push_back(std::move(d));
  }
  return out;
}

}  // namespace mpsim::calibrate
