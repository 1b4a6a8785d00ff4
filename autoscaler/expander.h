// The autoscaler's expanders: which node group a scale-up grows when more
// than one could help (docs/reference/autoscaler.md §3.5).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/pod_scheduler.h"
#include "sim/random.h"

namespace mpsim::autoscaler {

// One way to help the pending pods: `nodes` new nodes of `group`, on which
// the pods worth `requested` would run.
struct ScaleUpOption {
  std::string group;
  int32_t nodes = 0;
  int32_t pods = 0;
  Resources node_template;
  Resources requested;  // the sum of the helped pods' requests
};

enum class Expander { kRandom, kLeastWaste };

// false for a name that is neither "random" nor "least-waste".
bool ParseExpander(const std::string& name, Expander* out);

// The option the expander picks; `options` is not empty. Ties, and the
// random expander, draw from `rng`.
const ScaleUpOption& BestOption(Expander expander, const std::vector<ScaleUpOption>& options,
                                Rng* rng);

// least-waste's score: the unused fraction of the new nodes' cpu plus that
// of their memory (docs/reference/autoscaler.md §3.5).
double Waste(const ScaleUpOption& option);

}  // namespace mpsim::autoscaler
