// The bootstrap data a cloud's pool controller puts on its machines: the
// `value` of the data secret the MachinePool names, read the way CAPA's
// GetRawBootstrapData, CAPZ's and CAPG's GetBootstrapData read it
// (docs/reference/providers.md §0.1), and the hash each compares it by.
#pragma once

#include <string>
#include <string_view>

#include "api/client.h"

namespace mpsim {

// The `value` of the Secret spec.template.spec.bootstrap.dataSecretName
// names, in `ns` (the infrastructure pool's namespace). An error if the name
// is unset, the secret cannot be read, or it has no `value` key.
// REQUIRES: client != nullptr.
Status GetBootstrapData(Client* client, const std::string& ns, const MachinePool& mp,
                        std::string* value);

// 16 hex digits of a 64-bit hash of `data`: the model's stand-in for the
// sha256 hex digests CAPA (userdata.ComputeHash), CAPZ
// (calculateBootstrapDataHash) and CAPG (the instance template's name)
// compute. Only whether two hashes differ matters, and CAPG's name keeps
// 16 hex digits of its digest.
std::string DataHash(std::string_view data);

}  // namespace mpsim
