#include "sim/distribution_proto.h"

#include <cmath>
#include <vector>

namespace mpsim {

DistSpec ToDistSpec(const proto::Distribution& d) {
  const std::string& kind = d.dist();
  if (kind == "uniform") return DistSpec::Uniform(d.min(), d.max());
  if (kind == "exponential") return DistSpec::Exponential(d.mean());
  // The schema's mu is of ln(seconds); DistSpec's is of ln(microseconds).
  if (kind == "lognormal" && d.has_mu()) {
    return DistSpec::LognormalMuSigma(d.mu() + std::log(1e6), d.sigma());
  }
  if (kind == "lognormal") return DistSpec::LognormalMedianP99(d.median(), d.p99());
  if (kind == "normal") return DistSpec::Normal(d.mean(), d.stddev());
  if (kind == "empirical") {
    return DistSpec::Empirical(std::vector<Duration>(d.samples().begin(), d.samples().end()));
  }
  return DistSpec::Constant(d.value());
}

}  // namespace mpsim
