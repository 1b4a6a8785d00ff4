#include "models/common/bootstrap_data.h"

#include <cstdio>

#include "util/string_hash.h"

namespace mpsim {

Status GetBootstrapData(Client* client, const std::string& ns, const MachinePool& mp,
                        std::string* value) {
  const std::optional<std::string>& name = mp.spec.template_.spec.bootstrap.data_secret_name;
  if (!name) {
    return Status::Invalid(
        "error retrieving bootstrap data: linked MachinePool's bootstrap.dataSecretName is nil");
  }
  std::shared_ptr<const Secret> secret = client->Secrets().GetShared({ns, *name});
  if (secret == nullptr) {
    return Status::NotFound("failed to retrieve bootstrap data secret " + ns + "/" + *name +
                            ": Secret \"" + *name + "\" not found");
  }
  auto it = secret->data.find("value");
  if (it == secret->data.end()) {
    return Status::Invalid("error retrieving bootstrap data: secret value key is missing");
  }
  *value = it->second;
  return Status::Ok();
}

std::string DataHash(std::string_view data) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(HashBytes(data)));
  return buf;
}

}  // namespace mpsim
