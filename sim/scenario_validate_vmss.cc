// Rules of the `vmss` block's CAPZ version key (the values CAPZ accepts).
#include <string>
#include <vector>

#include "sim/scenario_validate.h"

namespace mpsim::scenario {

void ValidateVmssVersionsAndIds(const proto::VmssProvider& v, const std::string& path,
                                std::vector<Issue>* issues) {
  CheckOneOf(v.delete_selection(), {"head", "v1.26.0"}, JoinKey(path, "deleteSelection"),
             "delete selection", issues);
}

}  // namespace mpsim::scenario
