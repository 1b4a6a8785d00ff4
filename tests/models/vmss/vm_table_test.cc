// VmTable answers as the std::map of VMs by instance ID that it replaced:
// lookups, counts, and walks in ID order both ways, as VMs come and go.
#include "models/vmss/vm_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace mpsim::vmss {
namespace {

struct TableVm {
  std::string name;
};

std::vector<uint64_t> TableIds(const VmTable<TableVm>& t) {
  std::vector<uint64_t> out;
  for (const auto& [id, vm] : t) out.push_back(id);
  return out;
}

VmTable<TableVm> TableOf(uint64_t n) {
  VmTable<TableVm> t;
  for (uint64_t id = 0; id < n; ++id) t.Add(id).name = "vm-" + std::to_string(id);
  return t;
}

TEST(VmTable, FindsEachVmByIdInOrder) {
  const VmTable<TableVm> t = TableOf(4);
  EXPECT_EQ(t.size(), 4u);
  EXPECT_EQ(TableIds(t), (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(t.at(2).name, "vm-2");
  EXPECT_EQ(t.find(3)->second.name, "vm-3");
  EXPECT_EQ(t.find(4), t.end());
  EXPECT_EQ(t.count(0), 1u);
  EXPECT_EQ(t.count(9), 0u);
}

TEST(VmTable, AGoneVmIsSkippedAndNotFound) {
  VmTable<TableVm> t = TableOf(4);
  t.erase(t.find(1));
  t.erase(t.find(2));
  EXPECT_EQ(TableIds(t), (std::vector<uint64_t>{0, 3}));
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.find(1), t.end());
  EXPECT_EQ(t.count(2), 0u);
  EXPECT_THROW(t.at(1), std::out_of_range);
  EXPECT_EQ(t.at(3).name, "vm-3");
}

TEST(VmTable, TheOldestGoingLeavesLaterIdsWhereTheyWere) {
  VmTable<TableVm> t = TableOf(3);
  t.erase(t.find(0));
  t.erase(t.find(1));
  t.Add(3).name = "vm-3";
  EXPECT_EQ(TableIds(t), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(t.at(2).name, "vm-2");
  EXPECT_EQ(t.at(3).name, "vm-3");
  EXPECT_EQ(t.count(0), 0u);
  t.erase(t.find(2));
  t.erase(t.find(3));
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.begin(), t.end());
  t.Add(7).name = "vm-7";  // IDs are never reused: the next one is higher
  EXPECT_EQ(TableIds(t), (std::vector<uint64_t>{7}));
}

TEST(VmTable, WalksBackwardsFromTheHighestId) {
  VmTable<TableVm> t = TableOf(5);
  t.erase(t.find(3));
  std::vector<uint64_t> back;
  for (auto it = t.rbegin(); it != t.rend(); ++it) back.push_back(it->first);
  EXPECT_EQ(back, (std::vector<uint64_t>{4, 2, 1, 0}));
}

TEST(VmTable, EntriesCanBeChangedInPlace) {
  VmTable<TableVm> t = TableOf(2);
  t.find(1)->second.name = "renamed";
  for (auto& [id, vm] : t) vm.name += "!";
  EXPECT_EQ(t.at(0).name, "vm-0!");
  EXPECT_EQ(t.at(1).name, "renamed!");
}

}  // namespace
}  // namespace mpsim::vmss
