// CAPA#5746 (docs/reference/aws-managed.md §4.2): under an external
// autoscaler a user's edit of spec.scaling.minSize above the node group's
// desired size. CAPA copies the group's desired size into the MachinePool
// (§1.2 step 10.5), then sends the whole scaling config with that size
// (§1.7), and EKS answers 400 InvalidParameterException (§2.3). Nothing
// clamps the size, so every pass gets the same 400.
#include <gtest/gtest.h>

#include "tests/models/eks/eks_fixture.h"

namespace mpsim::eks {
namespace {

class Eks5746Test : public EksTest {
 protected:
  void EditScaling(const char* key, const std::string& value) {
    InfraMachinePool imp = Imp();
    imp.spec.provider_spec[key] = value;
    client_.infra_machine_pools().Add(imp);
  }
  int FaultRows(const std::string& what) {
    int n = 0;
    for (const TimelineRow& r : rec_.rows()) n += r.object_kind == "Fault" && r.to == what;
    return n;
  }
};

// The edit's value wins over the block's; an unedited bound keeps the block's.
TEST_F(Eks5746Test, AnEditReplacesTheBlocksBound) {
  EksOptions o = EksTestOptions();
  o.min_size = 1;
  o.max_size = 5;
  Start(2, o);
  EditScaling(kScalingMinSizeField, "3");
  const ScalingBounds b = ScalingBoundsOf(Imp(), o);
  EXPECT_EQ(b.min_size, std::optional<int32_t>(3));
  EXPECT_EQ(b.max_size, std::optional<int32_t>(5));
}

// §4.2: scaling {1, 5} with 2 nodes under the annotation; minSize -> 3.
// UpdateNodegroupConfig carries desired 2 (the group's own, copied into the
// MachinePool) with min 3: "Minimum capacity 3 can't be greater than
// desired size 2" (the text third-party reports quote, §2.3). The group
// stays ACTIVE at {2, 1, 5}; a second pass sends it again and fails again.
TEST_F(Eks5746Test, MinSizeAboveTheAutoscaledSizeIsRefusedOnEveryPass) {
  EksOptions o = EksTestOptions();
  o.min_size = 1;
  o.max_size = 5;
  Start(2, o);
  ASSERT_TRUE(Pass().ok());
  ASSERT_EQ(ng_->status(), NodegroupStatus::kActive);
  SetMachinePool(
      [](MachinePool* mp) { mp->meta.annotations[kReplicasManagedBy] = "external-autoscaler"; });
  EditScaling(kScalingMinSizeField, "3");
  for (int pass = 1; pass <= 2; ++pass) {
    Status s = Pass();
    EXPECT_EQ(s.code(), Status::Code::kInvalid) << "pass " << pass;
    EXPECT_NE(s.message().find("failed to update nodegroup config: InvalidParameterException: "
                               "Minimum capacity 3 can't be greater than desired size 2"),
              std::string::npos)
        << s.message();
    EXPECT_EQ(Calls("eks:UpdateNodegroupConfig"), static_cast<uint64_t>(pass));
    EXPECT_EQ(FaultRows("UpdateNodegroupConfig.InvalidParameterException"), pass);
  }
  EXPECT_EQ(ng_->status(), NodegroupStatus::kActive);
  EXPECT_EQ(ng_->scaling(), (ScalingConfig{.desired = 2, .min_size = 1, .max_size = 5}));
  EXPECT_EQ(client_.machine_pools().At(kEksKey).spec.replicas, std::optional<int32_t>(2));
}

// The workaround of §4.2 in the model's terms: without the annotation the
// MachinePool's replicas (3) go with the new minimum, and EKS accepts
// {3, 3, 5}.
TEST_F(Eks5746Test, ReplicasRaisedWithTheMinimumAreAccepted) {
  EksOptions o = EksTestOptions();
  o.min_size = 1;
  o.max_size = 5;
  Start(2, o);
  ASSERT_TRUE(Pass().ok());
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 3; });
  EditScaling(kScalingMinSizeField, "3");
  ASSERT_TRUE(Pass().ok());
  EXPECT_EQ(ng_->scaling(), (ScalingConfig{.desired = 3, .min_size = 3, .max_size = 5}));
  EXPECT_EQ(FaultRows("UpdateNodegroupConfig.InvalidParameterException"), 0);
}

// §2.3: desired above maxSize is the same 400, in the other direction.
TEST_F(Eks5746Test, MaxSizeBelowTheDesiredSizeIsRefused) {
  EksOptions o = EksTestOptions();
  o.min_size = 1;
  o.max_size = 5;
  Start(4, o);
  ASSERT_TRUE(Pass().ok());
  SetMachinePool(
      [](MachinePool* mp) { mp->meta.annotations[kReplicasManagedBy] = "external-autoscaler"; });
  EditScaling(kScalingMaxSizeField, "3");
  Status s = Pass();
  EXPECT_EQ(s.code(), Status::Code::kInvalid);
  EXPECT_NE(s.message().find("Desired capacity 4 can't be greater than max size 3"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace mpsim::eks
