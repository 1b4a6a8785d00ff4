#include "models/common/infra_pool_report.h"

#include <gtest/gtest.h>

#include "tests/testing/fake_client.h"

namespace mpsim {
namespace {

using fake::FakeObjectClient;
using fake::Verb;

// A client over one empty store, with its own resourceVersion and clock.
struct Store {
  uint64_t rv = 0;
  fake::FakeClock clock;
  FakeObjectClient<InfraMachinePool> client{&rv, &clock};
};

InfraMachinePool Pool() {
  InfraMachinePool imp;
  imp.meta.ns = "default";
  imp.meta.name = "mp-0";
  return imp;
}

// The first report writes the list, its length and both flags.
TEST(PatchInfraPoolReport, WritesTheContractFields) {
  Store store;
  FakeObjectClient<InfraMachinePool>& client = store.client;
  client.Add(Pool());
  ASSERT_TRUE(
      PatchInfraPoolReport(&client, Pool(), {.provider_ids = {"a", "b"}, .ready = true}).ok());
  InfraMachinePool got;
  ASSERT_TRUE(client.Get({"default", "mp-0"}, &got).ok());
  EXPECT_EQ(got.spec.provider_id_list, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(got.status.replicas, 2);
  EXPECT_EQ(got.status.ready, true);
  EXPECT_EQ(got.status.initialization_provisioned, false);
  EXPECT_EQ(client.calls(Verb::kPatch), 1);
}

// A pool that already says what the report says gets no patch at all.
TEST(PatchInfraPoolReport, UnchangedReportSendsNoPatch) {
  Store store;
  FakeObjectClient<InfraMachinePool>& client = store.client;
  InfraMachinePool imp = Pool();
  imp.spec.provider_id_list = std::vector<std::string>{"a"};
  imp.status.replicas = 1;
  imp.status.ready = true;
  imp.status.initialization_provisioned = true;
  client.Add(imp);
  // Equal to the pool's list, in buffers of its own.
  const ProviderIDList ids = std::vector<std::string>{"a"};
  const InfraPoolReport same{.provider_ids = ids, .ready = true, .provisioned = true};
  ASSERT_TRUE(PatchInfraPoolReport(&client, imp, same).ok());
  EXPECT_EQ(client.calls(Verb::kPatch), 0);
}

}  // namespace
}  // namespace mpsim
