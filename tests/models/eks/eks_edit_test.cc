// The `setInfraPoolSpec` edit of an `eks` pool (models/eks/eks_validate.cc):
// spec.scaling's minSize and maxSize with the webhook's rules (whk:64-87,
// docs/reference/aws-managed.md §1.8) once applied to the block, and the
// refusal of an edit of a pool whose provider takes none, which names the
// pools that do (models/registry.cc).
#include <gtest/gtest.h>

#include "models/eks/eks_schema.h"
#include "models/registry.h"

namespace mpsim::eks {
namespace {

proto::MachinePoolSpec EksEditPool(int32_t min_size, int32_t max_size) {
  proto::MachinePoolSpec pool;
  pool.set_name("mp-0");
  pool.mutable_eks()->set_min_size(min_size);
  pool.mutable_eks()->set_max_size(max_size);
  return pool;
}

std::vector<scenario::Issue> EksEditIssues(const proto::MachinePoolSpec& pool,
                                           std::map<std::string, std::string> fields) {
  proto::Event::SetInfraPoolSpec edit;
  edit.set_pool(pool.name());
  for (const auto& [k, v] : fields) (*edit.mutable_fields())[k] = v;
  std::vector<scenario::Issue> issues;
  ValidateEdit(pool, edit, "spec.events[0].setInfraPoolSpec", &issues);
  return issues;
}

// CAPA#5746's edit (§4.2): {0, 5} -> minSize 2 passes admission.
TEST(EksEdit, MinSizeWithinMaxSizeIsAccepted) {
  EXPECT_TRUE(EksEditIssues(EksEditPool(0, 5), {{"scaling.minSize", "2"}}).empty());
  EXPECT_TRUE(EksEditIssues(EksEditPool(0, 5), {{"scaling.minSize", "6"}, {"scaling.maxSize", "8"}})
                  .empty());
}

// whk:64-87: maxSize >= minSize, once the edit is applied to the block.
TEST(EksEdit, MinSizeAboveMaxSizeIsRefused) {
  const auto issues = EksEditIssues(EksEditPool(0, 5), {{"scaling.minSize", "6"}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].path, "spec.events[0].setInfraPoolSpec.fields");
  EXPECT_NE(issues[0].message.find("scaling.maxSize (5) >= scaling.minSize (6)"), std::string::npos)
      << issues[0].message;
}

TEST(EksEdit, ValuesAreCountsOfZeroOrMore) {
  for (const char* bad : {"-1", "lots", "", "2x"}) {
    const auto issues = EksEditIssues(EksEditPool(0, 5), {{"scaling.maxSize", bad}});
    ASSERT_EQ(issues.size(), 1u) << bad;
    EXPECT_EQ(issues[0].path, "spec.events[0].setInfraPoolSpec.fields.scaling.maxSize");
    EXPECT_NE(issues[0].message.find("expected a node count, 0 or more"), std::string::npos);
  }
}

TEST(EksEdit, UnknownFieldsNameTheEditableOnes) {
  const auto issues = EksEditIssues(EksEditPool(0, 5), {{"scaling.minsize", "2"}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_NE(issues[0].message.find("unknown field \"scaling.minsize\" of an eks pool"),
            std::string::npos)
      << issues[0].message;
  EXPECT_NE(issues[0].message.find("scaling.minSize"), std::string::npos);
}

// An edit of a pool whose provider takes none names every block whose
// registration takes edits, with its keys.
TEST(EksEdit, TheRefusalElsewhereNamesEksAndItsKeys) {
  const std::string refusal = EditRefusal("mp-1");
  EXPECT_NE(refusal.find("pool \"mp-1\" takes no InfraMachinePool spec fields"), std::string::npos)
      << refusal;
  EXPECT_NE(refusal.find("eks (scaling.minSize, scaling.maxSize)"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("mig with gke: true (imageType, "), std::string::npos) << refusal;
  EXPECT_EQ(EditablePools().find("asg"), std::string::npos) << EditablePools();
}

}  // namespace
}  // namespace mpsim::eks
