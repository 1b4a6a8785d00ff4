// The world one simulated Auto Scaling Group needs in a test (loop, recorder,
// workload cluster) and constant-delay options, shared by the ASG tests.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/asg/auto_scaling_group.h"
#include "sim/api_server.h"

namespace mpsim::asg {

class AsgTest : public ::testing::Test {
 protected:
  AsgTest() : server_(&loop_), workload_(&loop_, &server_, &rec_, Workload(), 1) {}

  static WorkloadOptions Workload() {
    WorkloadOptions w;
    w.node_registration = DistSpec::Constant(10 * kSecond);
    w.node_ready = DistSpec::Constant(5 * kSecond);
    w.ccm_delay = DistSpec::Constant(kSecond);
    return w;
  }
  static AsgOptions Options() {
    AsgOptions o;
    o.zones = {"a", "b", "c"};
    o.launch_delay = DistSpec::Constant(20 * kSecond);
    o.delete_delay = DistSpec::Constant(30 * kSecond);
    o.reaction_delay = DistSpec::Constant(kSecond);
    o.launch_retry = DistSpec::Constant(60 * kSecond);
    return o;
  }
  std::map<std::string, int> PerZone(AutoScalingGroup& g) {
    std::map<std::string, int> n;
    for (const Instance* i : g.Describe()) ++n[i->zone];
    return n;
  }
  // The (time, state) rows of one instance, in order.
  std::vector<std::pair<Time, std::string>> States(const std::string& id) const {
    std::vector<std::pair<Time, std::string>> out;
    for (const TimelineRow& r : rec_.rows()) {
      if (r.object_kind == "Instance" && r.object == id) out.emplace_back(r.time, r.to);
    }
    return out;
  }
  // Runs the loop to `t` and stands there even if the queue ran dry earlier.
  void RunTo(Time t) {
    if (t > loop_.Now()) loop_.At(t, [] {});
    loop_.Run(t, 10'000'000);
  }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
};

}  // namespace mpsim::asg
