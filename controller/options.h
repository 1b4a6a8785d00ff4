// Knobs of the MachinePool controller port: which upstream behaviour to
// replay (HEAD by default) and which pending upstream fixes to apply.
#pragma once

namespace mpsim {

// How a Node's spec.providerID is matched against spec.providerIDList.
enum class ProviderIDMatch {
  // HEAD (>= v1.5.0): exact byte equality of the whole string.
  kExact,
  // <= v1.2.0: both sides must match ^[^:]+://.*[^/]$ and are compared on the
  // text after the last '/', so instance ids reused across scale sets collide.
  kLegacyLastSegment,
};

struct MachinePoolOptions {
  ProviderIDMatch provider_id_match = ProviderIDMatch::kExact;
  // PR #14234 (D1): mirror external failureReason/failureMessage instead of
  // reproducing the nil-pointer panic of the inverted guards.
  bool fix_nil_guards = false;
  // PR #14030 (D2): read InfraMachinePool status.initialization.provisioned,
  // falling back to status.ready.
  bool fix_initialization_provisioned = false;
};

}  // namespace mpsim
