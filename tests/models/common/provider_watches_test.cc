// The watches the cloud providers' MachinePool controllers share
// (docs/reference/providers.md §0.1): own kind only, status-only updates dropped, every
// MachinePool update mapped to an infrastructureRef of that kind.
#include "models/common/provider_watches.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

class WatchRecorder : public Builder {
 public:
  void WatchClusters(MapFunc<Cluster>) override {}
  void WatchMachinePools(MapFunc<MachinePool> f) override { pools = std::move(f); }
  void WatchBootstrapConfigs(MapFunc<BootstrapConfig>) override {}
  void WatchInfraMachinePools(MapFunc<InfraMachinePool> f) override { infra = std::move(f); }
  void WatchMachines(MapFunc<Machine>) override {}
  void WatchInfraMachines(MapFunc<InfraMachine>) override {}
  void WatchWorkloadNodes(MapFunc<Node>) override {}
  MapFunc<MachinePool> pools;
  MapFunc<InfraMachinePool> infra;
};

InfraMachinePool Pool(const std::string& kind) {
  InfraMachinePool p;
  p.meta = {.name = "mp-0", .ns = "default"};
  p.kind = kind;
  return p;
}

TEST(WatchProviderPools, OwnKindOnlyAndStatusOnlyUpdatesDropped) {
  WatchRecorder b;
  WatchProviderPools(&b, "AWSMachinePool");
  using Type = WatchEvent<InfraMachinePool>::Type;
  const InfraMachinePool old = Pool("AWSMachinePool");
  InfraMachinePool status_only = old;
  status_only.status.replicas = 3;
  InfraMachinePool spec_change = old;
  spec_change.spec.provider_id_list = std::vector<std::string>{"aws:///z/i-1"};
  EXPECT_EQ(b.infra({Type::kAdded, nullptr, old}).size(), 1u);
  EXPECT_TRUE(b.infra({Type::kModified, &old, status_only}).empty());
  EXPECT_EQ(b.infra({Type::kModified, &old, spec_change}).size(), 1u);
  EXPECT_TRUE(b.infra({Type::kAdded, nullptr, Pool("GCPMachinePool")}).empty());
}

TEST(WatchProviderPools, MachinePoolsMapToTheirInfrastructureRefOfThatKind) {
  WatchRecorder b;
  WatchProviderPools(&b, "AzureMachinePool");
  MachinePool mp;
  mp.meta = {.name = "pool", .ns = "ns"};
  mp.spec.template_.spec.infrastructure_ref = {.kind = "AzureMachinePool", .name = "infra"};
  using Type = WatchEvent<MachinePool>::Type;
  const std::vector<Request> reqs = b.pools({Type::kAdded, nullptr, mp});
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].key, (ObjectKey{"ns", "infra"}));
  mp.spec.template_.spec.infrastructure_ref.kind = "AWSMachinePool";
  EXPECT_TRUE(b.pools({Type::kAdded, nullptr, mp}).empty());
}

}  // namespace
}  // namespace mpsim
