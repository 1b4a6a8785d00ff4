// The simulated scale set (docs/reference/providers.md §2.1-§2.3): the PUT as a long-running
// operation, per-VM provisioning states, AllocationFailed partial scale-outs,
// best-effort zone balance, Manual upgrade models and their limit of 10,
// deletes lowering capacity, Spot eviction, the sorted providerID set, the
// resource group's case and the Flexible form of providerIDs, and the
// terminate notification's wait before a VM delete.
#include "models/vmss/virtual_machine_scale_set.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "sim/api_server.h"

namespace mpsim::vmss {
namespace {

class VmssTest : public ::testing::Test {
 protected:
  VmssTest() : server_(&loop_), workload_(&loop_, &server_, &rec_, WorkloadOptions{}, 1) {}
  static VmssOptions Options() {
    VmssOptions o;
    o.zones = {"1"};
    o.launch_delay = DistSpec::Constant(60 * kSecond);
    o.delete_delay = DistSpec::Constant(30 * kSecond);
    o.operation_delay = DistSpec::Constant(2 * kSecond);
    o.allocation_failure_delay = DistSpec::Constant(20 * kSecond);
    return o;
  }
  // Runs the loop to `t`, then stands at `t` even if the queue ran dry earlier.
  void RunTo(Time t) {
    loop_.At(t, [] {});
    loop_.Run(t, 10'000'000);
  }
  static int Count(const VirtualMachineScaleSet& s, VmState st) {
    int n = 0;
    for (const auto& [id, vm] : s.vms()) n += vm.state == st;
    return n;
  }

  // The providerID the cloud provider set on the Node of `vm`, "" if none.
  std::string NodeProviderID(const std::string& vm) {
    const auto& nodes = server_.Store<Node>().objects();
    auto it = nodes.find(ObjectKey{"", vm});
    return it == nodes.end() ? "" : it->second->spec.provider_id;
  }
  // The providerIDs CAPZ lists and the Node's, for VM 0 of `o`.
  std::pair<std::string, std::string> ProviderIds(const VmssOptions& o) {
    VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", o, 1);
    EXPECT_TRUE(s.Put(1, "v1.30.0", "data").ok());
    RunTo(5 * kMinute);
    return {*s.provider_ids().begin(), NodeProviderID("mp-0_0")};
  }
  // When VM 0, deleted at 2m, is gone (-1: still there at 30m).
  Time GoneAt(Duration terminate_notification_timeout) {
    VmssOptions o = Options();
    o.terminate_notification_timeout = terminate_notification_timeout;
    VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", o, 1);
    EXPECT_TRUE(s.Put(1, "v1.30.0", "data").ok());
    RunTo(2 * kMinute);
    s.DeleteInstance(0);
    for (Time t = 2 * kMinute; t <= 30 * kMinute; t += kSecond) {
      RunTo(t);
      if (s.vms().count(0) == 0) return t;
      EXPECT_EQ(s.vms().at(0).state, VmState::kDeleting);
    }
    return -1;
  }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
};

TEST_F(VmssTest, PutIsAcceptedThenVisibleThenDone) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(3, "v1.30.0", "data").ok());
  EXPECT_TRUE(s.exists());
  EXPECT_TRUE(s.operation_pending());
  EXPECT_EQ(s.provisioning_state(), "Creating");
  EXPECT_TRUE(s.vms().empty());  // accepted, not yet visible
  RunTo(3 * kSecond);
  EXPECT_EQ(Count(s, VmState::kCreating), 3);
  EXPECT_EQ(s.capacity(), 3);
  EXPECT_TRUE(s.operation_pending());
  RunTo(63 * kSecond);
  EXPECT_EQ(Count(s, VmState::kSucceeded), 3);
  EXPECT_FALSE(s.operation_pending());
  EXPECT_EQ(s.provisioning_state(), "Succeeded");
}

TEST_F(VmssTest, AllocationFailureLeavesFailedVmsThatCountTowardCapacity) {
  VmssOptions o = Options();
  o.capacity = {{"1", 2}};
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", o, 1);
  ASSERT_TRUE(s.Put(5, "v1.30.0", "data").ok());
  RunTo(30 * kSecond);  // failures surface after 20 s, before the launches end
  EXPECT_EQ(Count(s, VmState::kFailed), 3);
  EXPECT_TRUE(s.operation_pending());
  RunTo(2 * kMinute);
  EXPECT_EQ(Count(s, VmState::kSucceeded), 2);
  EXPECT_EQ(s.capacity(), 5);
  EXPECT_EQ(s.provisioning_state(), "Failed");  // a partial scale-out fails the operation
  for (const auto& [id, vm] : s.vms()) {
    if (vm.state == VmState::kFailed) {
      EXPECT_EQ(vm.error, "AllocationFailed");
    }
  }
}

TEST_F(VmssTest, AllocationFailedProbabilityFailsVmsWithRoomLeft) {
  VmssOptions o = Options();
  o.allocation_failed_probability = 1;
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", o, 1);
  ASSERT_TRUE(s.Put(4, "v1.30.0", "data").ok());
  RunTo(5 * kMinute);
  EXPECT_EQ(Count(s, VmState::kFailed), 4);
}

TEST_F(VmssTest, FullZonesFailWithZonalAllocationFailed) {
  VmssOptions o = Options();
  o.zones = {"1", "2"};
  o.capacity = {{"1", 1}, {"2", 1}};
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", o, 1);
  ASSERT_TRUE(s.Put(3, "v1.30.0", "data").ok());
  RunTo(5 * kMinute);
  ASSERT_EQ(Count(s, VmState::kFailed), 1);
  EXPECT_EQ(s.vms().at(2).error, "ZonalAllocationFailed");
}

TEST_F(VmssTest, BestEffortBalancePlacesVmsInZonesWithRoom) {
  VmssOptions o = Options();
  o.zones = {"1", "2", "3"};
  o.capacity = {{"1", 1}};
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", o, 1);
  ASSERT_TRUE(s.Put(7, "v1.30.0", "data").ok());
  RunTo(5 * kMinute);
  std::map<std::string, int> per_zone;
  for (const auto& [id, vm] : s.vms()) ++per_zone[vm.zone];
  EXPECT_EQ(Count(s, VmState::kSucceeded), 7);
  EXPECT_EQ(per_zone, (std::map<std::string, int>{{"1", 1}, {"2", 3}, {"3", 3}}));
}

TEST_F(VmssTest, ManualUpgradeKeepsExistingVmsOnTheirModel) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(2, "v1.30.0", "data").ok());
  RunTo(2 * kMinute);
  ASSERT_TRUE(s.Put(3, "v1.31.0", "data").ok());
  RunTo(4 * kMinute);
  EXPECT_EQ(s.model_version(), "v1.31.0");
  EXPECT_EQ(s.on_latest_model(), 1);
  EXPECT_EQ(s.referenced_models(), 2);
  EXPECT_EQ(s.vms().at(0).kubelet_version, "v1.30.0");
  EXPECT_EQ(s.vms().at(2).kubelet_version, "v1.31.0");
}

TEST_F(VmssTest, NewCustomDataIsANewModelButNotANewImage) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(2, "v1.30.0", "token-1").ok());
  RunTo(2 * kMinute);
  ASSERT_TRUE(s.Put(3, "v1.30.0", "token-2").ok());
  RunTo(4 * kMinute);
  EXPECT_EQ(s.referenced_models(), 2);
  EXPECT_EQ(s.on_latest_model(), 3);  // CAPZ judges the latest model by image only
}

TEST_F(VmssTest, TheTenModelLimitRefusesAnEleventhModel) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  for (int i = 1; i <= kModelLimit; ++i) {
    ASSERT_TRUE(s.Put(i, "v1.30." + std::to_string(i), "data").ok()) << i;
    RunTo(i * 2 * kMinute);
  }
  EXPECT_EQ(s.referenced_models(), 10);
  Status st = s.Put(11, "v1.30.11", "data");
  EXPECT_EQ(st.code(), Status::Code::kInvalid);
  EXPECT_NE(st.message().find("reached its limit of 10 models"), std::string::npos);
  EXPECT_TRUE(s.Put(11, "v1.30.10", "data").ok());  // same model: no new one needed
}

TEST_F(VmssTest, DeletingAnInstanceLowersCapacityAndEndsDeleted) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(3, "v1.30.0", "data").ok());
  RunTo(2 * kMinute);
  s.DeleteInstance(1);
  EXPECT_EQ(s.capacity(), 2);
  EXPECT_EQ(s.vms().at(1).state, VmState::kDeleting);
  RunTo(3 * kMinute);
  EXPECT_EQ(s.vms().count(1), 0u);
  EXPECT_EQ(s.provider_ids().size(), 2u);
}

TEST_F(VmssTest, InstanceIdsAreNeverReused) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(2, "v1.30.0", "data").ok());
  RunTo(2 * kMinute);
  s.DeleteInstance(1);
  RunTo(3 * kMinute);
  ASSERT_TRUE(s.Put(2, "v1.30.0", "data").ok());
  RunTo(5 * kMinute);
  EXPECT_EQ(s.vms().count(1), 0u);
  EXPECT_EQ(s.vms().count(2), 1u);
}

TEST_F(VmssTest, ProviderIdsAreSortedAsStrings) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(12, "v1.30.0", "data").ok());
  RunTo(kMinute);
  std::vector<std::string> tails;
  for (const std::string& id : s.provider_ids()) tails.push_back(id.substr(id.rfind('/') + 1));
  EXPECT_EQ(tails, (std::vector<std::string>{"0", "1", "10", "11", "2", "3", "4", "5", "6", "7",
                                             "8", "9"}));
  EXPECT_EQ(*s.provider_ids().begin(),
            "azure:///subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mpsim-rg/"
            "providers/Microsoft.Compute/virtualMachineScaleSets/mp-0/virtualMachines/0");
}

TEST_F(VmssTest, SpotEvictionRemovesTheVmAfterThirtySeconds) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(2, "v1.30.0", "data").ok());
  RunTo(2 * kMinute);
  s.Evict(0);
  RunTo(2 * kMinute + 29 * kSecond);
  EXPECT_EQ(s.vms().count(0), 1u);
  RunTo(2 * kMinute + 31 * kSecond);
  EXPECT_EQ(s.vms().count(0), 0u);
  EXPECT_EQ(s.capacity(), 1);
}

TEST_F(VmssTest, DeletingTheScaleSetDeletesEveryVm) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(3, "v1.30.0", "data").ok());
  RunTo(2 * kMinute);
  s.Delete();
  EXPECT_EQ(s.provisioning_state(), "Deleting");
  RunTo(3 * kMinute);
  EXPECT_FALSE(s.exists());
  EXPECT_TRUE(s.vms().empty());
}

constexpr const char* kSub = "azure:///subscriptions/00000000-0000-0000-0000-000000000000";

TEST_F(VmssTest, UniformProviderIdsLowercaseTheResourceGroupOnBothSides) {
  VmssOptions o = Options();
  o.resource_group = "Tilt-RG";
  const std::string want = std::string(kSub) +
                           "/resourceGroups/tilt-rg/providers/Microsoft.Compute/"
                           "virtualMachineScaleSets/mp-0/virtualMachines/0";
  EXPECT_EQ(ProviderIds(o), std::make_pair(want, want));
}

// The listed providerID, the VM's and its Node's are one pinned buffer, as on
// the other clouds, so the MachinePool reconcile's matches settle by address
// (seventeenth round of docs/PERFORMANCE.md).
TEST_F(VmssTest, ListedVmAndNodeProviderIdsShareOneBuffer) {
  StringArena run;
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(1, "v1.30.0", "data").ok());
  RunTo(5 * kMinute);
  const auto& nodes = server_.Store<Node>().objects();
  auto node = nodes.find(ObjectKey{"", "mp-0_0"});
  ASSERT_NE(node, nodes.end());
  const void* vm = s.vms().at(0).provider_id.identity();
  EXPECT_EQ(s.provider_ids().begin()->identity(), vm);
  EXPECT_EQ(node->second->spec.provider_id.identity(), vm);
}

// Before kubernetes PR #74882 the Node kept the resource group's case: the
// two strings differ and never match exactly (CAPZ #2817).
TEST_F(VmssTest, NodeKeepsTheResourceGroupsCaseWhenAsked) {
  VmssOptions o = Options();
  o.resource_group = "Tilt";
  o.node_keeps_resource_group_case = true;
  const std::string tail =
      "/providers/Microsoft.Compute/virtualMachineScaleSets/mp-0/"
      "virtualMachines/0";
  EXPECT_EQ(ProviderIds(o), std::make_pair(std::string(kSub) + "/resourceGroups/tilt" + tail,
                                           std::string(kSub) + "/resourceGroups/Tilt" + tail));
}

TEST_F(VmssTest, FlexibleProviderIdsNameThePlainVm) {
  VmssOptions o = Options();
  o.orchestration_mode = OrchestrationMode::kFlexible;
  const std::string want =
      std::string(kSub) +
      "/resourceGroups/mpsim-rg/providers/Microsoft.Compute/virtualMachines/mp-0_0";
  EXPECT_EQ(ProviderIds(o), std::make_pair(want, want));
}

// deleteDelay is 30 s: the notification's 5 minutes come before it.
TEST_F(VmssTest, VmDeleteEndsAfterDeleteDelayWithoutTerminateNotification) {
  EXPECT_EQ(GoneAt(0), 2 * kMinute + 30 * kSecond);
}

TEST_F(VmssTest, TerminateNotificationDelaysTheVmDeleteByItsTimeout) {
  EXPECT_EQ(GoneAt(5 * kMinute), 7 * kMinute + 30 * kSecond);
}

TEST_F(VmssTest, SpotEvictionGetsNoTerminateNotification) {
  VmssOptions o = Options();
  o.terminate_notification_timeout = 15 * kMinute;
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", o, 1);
  ASSERT_TRUE(s.Put(1, "v1.30.0", "data").ok());
  RunTo(2 * kMinute);
  s.Evict(0);
  RunTo(2 * kMinute + 31 * kSecond);
  EXPECT_EQ(s.vms().count(0), 0u);
}

// The Succeeded VMs' names, as the AzureMachinePool pass reads them, follow
// every VM that comes, finishes, is deleted and goes.
TEST_F(VmssTest, SucceededNamesFollowTheVmsStates) {
  VirtualMachineScaleSet s(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(s.Put(3, "v1.30.0", "data").ok());
  RunTo(3 * kSecond);
  EXPECT_TRUE(s.SucceededNames().empty());  // Creating
  RunTo(63 * kSecond);
  using Names = std::vector<std::string_view>;
  EXPECT_EQ(s.SucceededNames(), (Names{"mp-0_0", "mp-0_1", "mp-0_2"}));
  s.DeleteInstance(1);
  EXPECT_EQ(s.SucceededNames(), (Names{"mp-0_0", "mp-0_2"}));  // Deleting
  RunTo(2 * kMinute);
  ASSERT_EQ(s.vms().count(1), 0u);
  EXPECT_EQ(s.SucceededNames(), (Names{"mp-0_0", "mp-0_2"}));
  ASSERT_TRUE(s.Put(3, "v1.30.0", "data").ok());
  RunTo(4 * kMinute);
  EXPECT_EQ(s.SucceededNames(), (Names{"mp-0_0", "mp-0_2", "mp-0_3"}));
}

}  // namespace
}  // namespace mpsim::vmss
