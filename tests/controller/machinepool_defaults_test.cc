// TestMachinePoolDefault and TestCalculateMachinePoolReplicas
// (core/webhooks/admission/machinepool_test.go), docs/reference/capi-core.md §5 and §6.11.
#include "controller/machinepool_defaults.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

constexpr const char* kMin = "cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size";
constexpr const char* kMax = "cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size";

TEST(MachinePoolDefault, DefaultsLabelReplicasVersionAndNodeDeletionTimeout) {
  MachinePool mp;
  mp.meta.ns = "foobar";
  mp.spec.template_.spec.bootstrap.config_ref = ObjectReference{.name = "bootstrap"};
  mp.spec.template_.spec.version = "1.20.0";
  ASSERT_TRUE(DefaultMachinePool(nullptr, &mp).ok());
  EXPECT_EQ(mp.meta.labels.at("cluster.x-k8s.io/cluster-name"), mp.spec.cluster_name);
  EXPECT_EQ(mp.spec.replicas, 1);
  EXPECT_EQ(mp.spec.template_.spec.version, "v1.20.0");
  EXPECT_EQ(mp.spec.template_.spec.deletion.node_deletion_timeout_seconds, 10);
}

// ---- TestCalculateMachinePoolReplicas ----

class CalculateMachinePoolReplicas : public ::testing::Test {
 protected:
  static MachinePool Annotated(std::map<std::string, std::string> annotations) {
    MachinePool mp;
    mp.meta.annotations = std::move(annotations);
    return mp;
  }
  static MachinePool WithReplicas(std::optional<int32_t> replicas) {
    MachinePool mp;
    mp.spec.replicas = replicas;
    return mp;
  }
  static int32_t Calc(const MachinePool* old_mp, const MachinePool& new_mp) {
    int32_t replicas = -1;
    EXPECT_TRUE(mpsim::CalculateMachinePoolReplicas(old_mp, new_mp, &replicas).ok());
    return replicas;
  }
  static bool Fails(const MachinePool& new_mp) {
    int32_t replicas = -1;
    return !mpsim::CalculateMachinePoolReplicas(nullptr, new_mp, &replicas).ok();
  }
  const MachinePool min_max_ = Annotated({{kMin, "3"}, {kMax, "7"}});
};

TEST_F(CalculateMachinePoolReplicas, IfNewMPHasReplicasSetKeepThatValue) {
  EXPECT_EQ(Calc(nullptr, WithReplicas(5)), 5);
}

TEST_F(CalculateMachinePoolReplicas, IfNewMPDoesNotHaveReplicasSetAndNoAnnotationsUse1) {
  EXPECT_EQ(Calc(nullptr, MachinePool{}), 1);
}

TEST_F(CalculateMachinePoolReplicas, IfNewMPOnlyHasMinSizeAnnotationFallbackTo1) {
  EXPECT_EQ(Calc(nullptr, Annotated({{kMin, "3"}})), 1);
}

TEST_F(CalculateMachinePoolReplicas, IfNewMPOnlyHasMaxSizeAnnotationFallbackTo1) {
  EXPECT_EQ(Calc(nullptr, Annotated({{kMax, "7"}})), 1);
}

TEST_F(CalculateMachinePoolReplicas, IfNewMPHasMinAndMaxSizeAnnotationAndMinSizeIsInvalidFail) {
  EXPECT_TRUE(Fails(Annotated({{kMin, "abc"}, {kMax, "7"}})));
}

TEST_F(CalculateMachinePoolReplicas, IfNewMPHasMinAndMaxSizeAnnotationAndMaxSizeIsInvalidFail) {
  EXPECT_TRUE(Fails(Annotated({{kMin, "3"}, {kMax, "abc"}})));
}

TEST_F(CalculateMachinePoolReplicas, IfNewMPHasMinAndMaxSizeAnnotationAndNewMPIsANewMPUseMinSize) {
  EXPECT_EQ(Calc(nullptr, min_max_), 3);
}

TEST_F(CalculateMachinePoolReplicas,
       IfNewMPHasMinAndMaxSizeAnnotationAndOldMPDoesntHaveReplicasSetUseMinSize) {
  const MachinePool old_mp;
  EXPECT_EQ(Calc(&old_mp, min_max_), 3);
}

TEST_F(CalculateMachinePoolReplicas,
       IfNewMPHasMinAndMaxSizeAnnotationAndOldMPReplicasIsBelowMinSizeUseMinSize) {
  const MachinePool old_mp = WithReplicas(1);
  EXPECT_EQ(Calc(&old_mp, min_max_), 3);
}

TEST_F(CalculateMachinePoolReplicas,
       IfNewMPHasMinAndMaxSizeAnnotationAndOldMPReplicasIsAboveMaxSizeUseMaxSize) {
  const MachinePool old_mp = WithReplicas(15);
  EXPECT_EQ(Calc(&old_mp, min_max_), 7);
}

TEST_F(CalculateMachinePoolReplicas,
       IfNewMPHasMinAndMaxSizeAnnotationAndOldMPReplicasIsBetweenMinAndMaxSizeUseOldMPReplicas) {
  const MachinePool old_mp = WithReplicas(4);
  EXPECT_EQ(Calc(&old_mp, min_max_), 4);
}

}  // namespace
}  // namespace mpsim
