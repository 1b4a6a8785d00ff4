#include "autoscaler/expander.h"

namespace mpsim::autoscaler {

bool ParseExpander(const std::string& name, Expander* out) {
  if (name == "random") {
    *out = Expander::kRandom;
  } else if (name == "least-waste") {
    *out = Expander::kLeastWaste;
  } else {
    return false;
  }
  return true;
}

double Waste(const ScaleUpOption& o) {
  auto unused = [&](int64_t offered, int64_t used) {
    const double total = static_cast<double>(offered) * o.nodes;
    return total <= 0 ? 0.0 : (total - static_cast<double>(used)) / total;
  };
  return unused(o.node_template.cpu_milli, o.requested.cpu_milli) +
         unused(o.node_template.memory_bytes, o.requested.memory_bytes);
}

// The random expander picks any option; least-waste keeps those of the
// smallest waste and, as upstream, leaves the tie to a random pick
// (docs/reference/autoscaler.md §3.5).
const ScaleUpOption& BestOption(Expander expander, const std::vector<ScaleUpOption>& options,
                                Rng* rng) {
  std::vector<const ScaleUpOption*> best;
  if (expander == Expander::kRandom) {
    for (const ScaleUpOption& o : options) best.push_back(&o);
  } else {
    double least = 0;
    for (const ScaleUpOption& o : options) {
      const double w = Waste(o);
      if (best.empty() || w < least) {
        best.assign(1, &o);
        least = w;
      } else if (w == least) {
        best.push_back(&o);
      }
    }
  }
  return *best[best.size() == 1 ? 0 : rng->Below(best.size())];
}

}  // namespace mpsim::autoscaler
