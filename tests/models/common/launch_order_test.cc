// Launch order: what a describe lists, through launches and removals.
#include "models/common/launch_order.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mpsim {
namespace {

std::vector<std::string> Names(const LaunchOrder<std::string>& order) {
  std::vector<std::string> out;
  for (const std::string* s : order.Members()) out.push_back(*s);
  return out;
}

TEST(LaunchOrder, ListsInLaunchOrderWithoutTheRemoved) {
  std::vector<std::string> members = {"a", "b", "c", "d", "e"};
  LaunchOrder<std::string> order;
  for (size_t i = 0; i < members.size(); ++i) order.Append(10 * (i + 1), &members[i]);
  order.Remove(20);
  order.Remove(40);
  order.Remove(45);  // never launched: nothing happens
  EXPECT_EQ(Names(order), (std::vector<std::string>{"a", "c", "e"}));
  std::string f = "f";
  order.Append(60, &f);
  order.Remove(10);
  order.Remove(10);  // twice: still gone once
  EXPECT_EQ(Names(order), (std::vector<std::string>{"c", "e", "f"}));
  order.Remove(30);  // found by number after the holes were closed
  EXPECT_EQ(Names(order), (std::vector<std::string>{"e", "f"}));
}

}  // namespace
}  // namespace mpsim
