// VisitRowsLookingAhead visits every row in order, and looks at each row
// at steps 3, 2 and 1, in that order, before visiting it.
#include "app/report/row_look_ahead.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace mpsim {
namespace {

TEST(VisitRowsLookingAhead, LooksAtEachRowThreeStepsBeforeItsVisit) {
  std::vector<int> rows(3 * kRowsAhead + 5);
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int>(i);
  std::vector<std::string> log;
  VisitRowsLookingAhead(
      rows,
      [&](int r, size_t row, int step) {
        EXPECT_EQ(static_cast<size_t>(r), row);
        log.push_back("look " + std::to_string(r) + "@" + std::to_string(step));
      },
      [&](int r) { log.push_back("visit " + std::to_string(r)); });
  std::vector<int> visits;
  for (const std::string& e : log) {
    if (e.rfind("visit ", 0) == 0) visits.push_back(std::stoi(e.substr(6)));
  }
  ASSERT_EQ(visits.size(), rows.size());
  for (size_t i = 0; i < visits.size(); ++i) EXPECT_EQ(visits[i], static_cast<int>(i));
  // A row far enough in: looked at 3, 2, 1, each before its visit.
  const int r = static_cast<int>(3 * kRowsAhead + 2);
  std::vector<std::string> of_r;
  for (const std::string& e : log) {
    if (e == "look " + std::to_string(r) + "@3" || e == "look " + std::to_string(r) + "@2" ||
        e == "look " + std::to_string(r) + "@1" || e == "visit " + std::to_string(r)) {
      of_r.push_back(e);
    }
  }
  const std::string n = std::to_string(r);
  EXPECT_EQ(of_r, (std::vector<std::string>{"look " + n + "@3", "look " + n + "@2",
                                            "look " + n + "@1", "visit " + n}));
}

TEST(RowFindsAhead, HandsOverTheEntryOfTheKeyAskedForAtStepThree) {
  const FlatViewMap<int> map = {{"mp-0-00001", 1}, {"mp-0-00002", 2}};
  RowFindsAhead finds;
  int asked = 0;
  auto key = [&asked] {
    ++asked;
    return std::string_view("mp-0-00002");
  };
  EXPECT_EQ(finds.Step(map, 7, 3, key), nullptr);
  EXPECT_EQ(finds.Step(map, 7, 2, key), nullptr);
  const FlatViewMap<int>::value_type* e = finds.Step(map, 7, 1, key);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->second, 2);
  EXPECT_EQ(asked, 1);  // the key is hashed once, at step 3
}

}  // namespace
}  // namespace mpsim
