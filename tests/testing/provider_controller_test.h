// The world a cloud provider controller's tests run in: an event loop, a
// recorder, a workload cluster and a fake management API client, with the
// provider's API calls counted per API for the pool mp-0.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "sim/api_server.h"
#include "sim/event_loop.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"
#include "tests/testing/fake_client.h"

namespace mpsim {

class ProviderControllerTest : public ::testing::Test {
 protected:
  ProviderControllerTest()
      : server_(&loop_),
        workload_(&loop_, &server_, &rec_, WorkloadOptions{}, 1),
        client_(&loop_) {}

  // Runs the loop to `t` and stands there even if the queue ran dry earlier.
  void RunTo(Time t) {
    if (t > loop_.Now()) loop_.At(t, [] {});
    loop_.Run(t, 10'000'000);
  }
  // The calls to `api` that the controllers made for mp-0.
  uint64_t Calls(const std::string& api) {
    const auto& m = rec_.provider_api_calls_by_api("mp-0");
    auto it = m.find(api);
    return it == m.end() ? 0 : it->second;
  }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
  fake::FakeClient client_;
};

}  // namespace mpsim
