// Per-call fault injection on controllers' writes: the hook's status is the
// call's result and nothing reaches the store; the world's own writes pass.
#include <gtest/gtest.h>

#include "sim/api_server.h"
#include "sim/cache_client.h"
#include "sim/event_loop.h"
#include "sim/informer.h"

namespace mpsim {
namespace {

TEST(ClientFault, InjectedConflictFailsThePatchAndLeavesTheStoreAlone) {
  EventLoop loop;
  ApiServer server(&loop);
  Informer<MachinePool> inf(&loop, &server.Store<MachinePool>(), DistSpec::Constant(0),
                            StreamFor(1, "t"));
  uint64_t writes = 0;
  CacheClient<MachinePool> client(&inf, &server.Store<MachinePool>(), &writes);
  MachinePool mp;
  mp.meta = {.name = "mp-0", .ns = "default"};
  ASSERT_TRUE(server.Store<MachinePool>().Create(&mp).ok());
  std::vector<std::string> calls;
  server.SetClientFault([&](const char* kind, const char* verb, const ObjectKey& key) {
    calls.push_back(std::string(kind) + " " + verb + " " + key.String());
    return std::string(verb) == "patch" ? Status::Conflict("injected") : Status::Ok();
  });
  const MachinePool base = mp;
  mp.status.phase = "Running";
  Status s = client.Patch(base, &mp);
  EXPECT_TRUE(s.IsConflict()) << s.message();
  MachinePool got;
  ASSERT_TRUE(server.Store<MachinePool>().Get(mp.meta.Key(), &got).ok());
  EXPECT_EQ(got.status.phase, "");
  EXPECT_EQ(calls, std::vector<std::string>{"MachinePool patch default/mp-0"});
  EXPECT_TRUE(client.Delete(mp.meta.Key()).ok());  // other verbs pass
  got.status.phase = "Pending";
  EXPECT_TRUE(server.Store<MachinePool>().Create(&got).ok());  // the world is never faulted
}

}  // namespace
}  // namespace mpsim
