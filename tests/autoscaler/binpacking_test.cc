// The binpacking estimator (docs/reference/autoscaler.md §3.4): pods sorted
// by their share of the template node, largest first, first fit on new
// nodes, capped at the group's room. Expected counts worked by hand.
#include "autoscaler/binpacking.h"

#include <gtest/gtest.h>

namespace mpsim::autoscaler {
namespace {

constexpr int64_t kBinGi = 1024LL * 1024 * 1024;
const Resources kBinFourCpuNode{4000, 16 * kBinGi, 110};

std::vector<Resources> BinpackPods(int n, int64_t cpu_milli, int64_t memory) {
  return std::vector<Resources>(n, Resources{cpu_milli, memory, 1});
}

// 96 one-CPU pods, four to a 4-CPU node: 24 nodes.
TEST(Binpacking, OneCpuPodsFillFourCpuNodesFourAtATime) {
  const Estimate e = EstimateNodes(BinpackPods(96, 1000, 2 * kBinGi), kBinFourCpuNode, 50);
  EXPECT_EQ(e.nodes, 24);
  EXPECT_EQ(e.pods, 96);
  EXPECT_EQ(e.requested.cpu_milli, 96000);
}

// The group's room caps the estimate: 10 nodes take 40 of the 96.
TEST(Binpacking, TheGroupsRoomCapsTheNodes) {
  const Estimate e = EstimateNodes(BinpackPods(96, 1000, 2 * kBinGi), kBinFourCpuNode, 10);
  EXPECT_EQ(e.nodes, 10);
  EXPECT_EQ(e.pods, 40);
}

// A pod larger than a whole node is helped by no node of the group.
TEST(Binpacking, APodLargerThanTheTemplateIsNotHelped) {
  const Estimate e = EstimateNodes(BinpackPods(3, 5000, kBinGi), kBinFourCpuNode, 50);
  EXPECT_EQ(e.nodes, 0);
  EXPECT_EQ(e.pods, 0);
}

// Largest first: three 3-CPU pods and three 1-CPU pods take three nodes
// (3+1 each), where arrival order (1,1,1,3,3,3) first fit would take four.
TEST(Binpacking, LargestPodsArePlacedFirst) {
  std::vector<Resources> pods = BinpackPods(3, 1000, kBinGi);
  for (const Resources& big : BinpackPods(3, 3000, kBinGi)) pods.push_back(big);
  const Estimate e = EstimateNodes(pods, kBinFourCpuNode, 50);
  EXPECT_EQ(e.nodes, 3);
  EXPECT_EQ(e.pods, 6);
}

TEST(Binpacking, FirstFitReturnsWhatFitsNowhere) {
  std::vector<Room> rooms{Room{{2000, 4 * kBinGi, 10}}, Room{{1000, 4 * kBinGi, 10}}};
  const std::vector<Resources> left = FirstFit(BinpackPods(4, 1000, kBinGi), &rooms);
  EXPECT_EQ(left.size(), 1u);
  EXPECT_EQ(rooms[0].free.cpu_milli, 0);
  EXPECT_EQ(rooms[1].free.cpu_milli, 0);
}

}  // namespace
}  // namespace mpsim::autoscaler
