// The registration list: the one place that names every provider, so that
// sim/, scenario/ and app/ need not. A new provider adds its line to
// Providers() (and its block to scenario/scenario.proto).
#include "models/registry.h"

#include "models/aks/aks_schema.h"
#include "models/asg/asg_schema.h"
#include "models/eks/eks_schema.h"
#include "models/kapsule/kapsule_schema.h"
#include "models/mig/mig_schema.h"
#include "models/oci/oci_schema.h"
#include "models/rosa/rosa_schema.h"
#include "models/test/test_schema.h"
#include "models/vmss/vmss_schema.h"
#include "sim/yaml_to_proto.h"

namespace mpsim {

const std::vector<ProviderRegistration>& Providers() {
  static const std::vector<ProviderRegistration> providers = {
      test::Registration(),   asg::Registration(),     vmss::Registration(), mig::Registration(),
      aks::Registration(),    eks::Registration(),     rosa::Registration(), oci::Registration(),
      oci::OkeRegistration(), kapsule::Registration(),
  };
  return providers;
}

std::string EditablePools() {
  std::string out;
  for (const ProviderRegistration& p : Providers()) {
    if (p.validate_edit == nullptr) continue;
    std::string keys;
    for (const std::string& k : p.edit_keys) keys += (keys.empty() ? "" : ", ") + k;
    out += (out.empty() ? "" : "; ") + (p.edit_pools.empty() ? p.block : p.edit_pools) + " (" +
           keys + ")";
  }
  return out;
}

std::string EditRefusal(const std::string& pool_name) {
  return "pool " + scenario::Quote(pool_name) +
         " takes no InfraMachinePool spec fields; the pools that take them: " + EditablePools();
}

const ProviderRegistration* FindProvider(const proto::MachinePoolSpec& pool) {
  const google::protobuf::OneofDescriptor* oneof =
      proto::MachinePoolSpec::descriptor()->FindOneofByName("provider");
  const google::protobuf::FieldDescriptor* set =
      pool.GetReflection()->GetOneofFieldDescriptor(pool, oneof);
  if (set == nullptr) return nullptr;
  for (const ProviderRegistration& p : Providers()) {
    if (p.block == set->name()) return &p;
  }
  return nullptr;
}

const ProviderRegistration* FindByInfraKind(const std::string& kind, const InfraKind** which) {
  for (const ProviderRegistration& p : Providers()) {
    for (const InfraKind& k : p.infra_kinds) {
      if (k.kind != kind) continue;
      *which = &k;
      return &p;
    }
  }
  return nullptr;
}

std::vector<std::string> KnownInfraKinds() {
  std::vector<std::string> out;
  for (const ProviderRegistration& p : Providers()) {
    for (const InfraKind& k : p.infra_kinds) out.push_back(k.kind);
  }
  return out;
}

std::string ProviderName(const proto::MachinePoolSpec& pool) {
  const ProviderRegistration* p = FindProvider(pool);
  return p == nullptr ? "none" : p->block;
}

const ControllerWords* FindControllerWords(const std::string& controller) {
  for (const ProviderRegistration& p : Providers()) {
    for (const ControllerWords& w : p.controllers) {
      if (w.controller == controller) return &w;
    }
  }
  return nullptr;
}

std::string AvailableProviders() {
  std::string out;
  for (const ProviderRegistration& p : Providers()) out += (out.empty() ? "" : ", ") + p.block;
  return out;
}

std::unique_ptr<InfraProvider> MakeProvider(const proto::MachinePoolSpec& pool,
                                            const ProviderContext& ctx) {
  const ProviderRegistration* p = FindProvider(pool);
  return p == nullptr ? nullptr : p->make(ctx);
}

}  // namespace mpsim
