// The registration list's infrastructure kinds (models/registry.h
// infra_kinds), which `mpsim import` reads.
#include <gtest/gtest.h>

#include <map>

#include "models/registry.h"
#include "scenario/loader.h"

namespace mpsim {
namespace {

TEST(RegistryInfraKinds, EachKindHasOneProviderAndEveryCloudHasOne) {
  std::map<std::string, int> seen;
  for (const ProviderRegistration& p : Providers()) {
    if (p.block != "test") {
      EXPECT_FALSE(p.infra_kinds.empty()) << p.block;
    }
    for (const InfraKind& k : p.infra_kinds) ++seen[k.kind];
  }
  for (const auto& [kind, count] : seen) EXPECT_EQ(count, 1) << kind;
  const InfraKind* which = nullptr;
  const ProviderRegistration* p = FindByInfraKind("GCPManagedMachinePool", &which);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->block, "mig");
  EXPECT_EQ(which->block_keys, "{gke: true}");
  EXPECT_EQ(FindByInfraKind("MachineDeployment", &which), nullptr);
}

TEST(RegistryInfraKinds, EveryKindsBlockKeysLoad) {
  for (const ProviderRegistration& p : Providers()) {
    for (const InfraKind& k : p.infra_kinds) {
      const std::string text =
          "{apiVersion: mpsim/v1, kind: Scenario, metadata: {name: k}, spec: {machinePools: "
          "[{name: mp-0, provider: {" +
          p.block + ": " + k.block_keys + "}}]}}";
      proto::Scenario sc;
      std::vector<ScenarioError> errors;
      EXPECT_TRUE(LoadScenarioFromString(text, "k.yaml", {}, &sc, &errors))
          << k.kind << ": " << (errors.empty() ? "" : errors[0].String());
    }
  }
}

}  // namespace
}  // namespace mpsim
