// The stage of an Instance "state" row's value, whichever provider wrote it.
#pragma once

#include <string_view>

#include "models/common/instance_stage.h"

namespace mpsim {

// The stage of `state` as the registered providers list it
// (ProviderRegistration::instance_states); kOther for a name none lists.
InstanceStage StageOf(std::string_view state);

}  // namespace mpsim
