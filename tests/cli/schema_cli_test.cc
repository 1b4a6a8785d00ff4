// `mpsim schema` end to end: exit 0 and one JSON Schema on stdout, the
// same text every time (editors and CI diff it).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

TEST(CliE2ESchema, PrintsADraft07SchemaOfScenarioFiles) {
  const testing::Ran r = testing::Mpsim("schema");
  ASSERT_EQ(r.status, 0);
  const nlohmann::json schema = nlohmann::json::parse(r.out);
  EXPECT_EQ(schema.at("$schema"), "http://json-schema.org/draft-07/schema#");
  EXPECT_TRUE(schema.at("properties").contains("spec"));
  EXPECT_EQ(testing::Mpsim("schema").out, r.out);
  EXPECT_EQ(testing::Mpsim("schema --no-such-flag").status, 2);
}

}  // namespace
}  // namespace mpsim
