// Keeps docs/scenarios.md (with each provider's models/<name>/README.md) and
// docs/defaults.md in step with the schema and the defaults table: a key
// added to either must be documented.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "models/registry.h"
#include "scenario/defaults.h"
#include "scenario/scenario.pb.h"
#include "sim/scenario_schema.h"

namespace mpsim {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

std::string ReadDoc(const std::string& name) {
  std::ifstream in(std::string(MPSIM_SOURCE_DIR) + "/docs/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every YAML key of `d` and the messages below it, as the loader spells them.
void CollectKeys(const Descriptor* d, std::set<const Descriptor*>* seen,
                 std::set<std::string>* keys) {
  if (!seen->insert(d).second) return;
  for (const std::string& key : scenario::KeysOf({d, nullptr})) keys->insert(key);
  for (int i = 0; i < d->real_oneof_decl_count(); ++i) {
    if (!scenario::IsNestedOneof(d->oneof_decl(i))) continue;
    for (const std::string& key : scenario::KeysOf({d, d->oneof_decl(i)})) keys->insert(key);
  }
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    // A map is a mapping of the user's own keys; its entry fields are not keys.
    if (f->is_map()) continue;
    CollectKeys(f->message_type(), seen, keys);
  }
}

// docs/scenarios.md and each provider folder's README. A folder may hold
// more than one block (models/oci/ has `oci` and `oke`), so every block
// must be named in the README of some folder, its own or the one it shares.
std::string ScenarioReference() {
  std::string doc = ReadDoc("scenarios.md");
  std::set<std::string> folders;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(MPSIM_SOURCE_DIR) + "/models")) {
    if (e.is_directory() && e.path().filename() != "common") folders.insert(e.path().filename());
  }
  std::string readmes;
  for (const std::string& f : folders) {
    const std::string own = ReadDoc("../models/" + f + "/README.md");
    EXPECT_FALSE(own.empty()) << "models/" << f << "/README.md is missing";
    readmes += own;
  }
  for (const ProviderRegistration& p : Providers()) {
    EXPECT_NE(readmes.find("`" + p.block + "`"), std::string::npos)
        << "no models/<folder>/README.md names the block `" << p.block << "`";
  }
  return doc + readmes;
}

TEST(ScenarioDocs, EveryKeyIsDocumented) {
  const std::string doc = ScenarioReference();
  ASSERT_FALSE(doc.empty()) << "docs/scenarios.md is missing";
  std::set<const Descriptor*> seen;
  std::set<std::string> keys;
  CollectKeys(proto::Scenario::descriptor(), &seen, &keys);
  std::string missing;
  for (const std::string& key : keys) {
    if (doc.find("`" + key + "`") == std::string::npos) missing += " " + key;
  }
  EXPECT_EQ(missing, "")
      << "keys not documented (as `name`) in docs/scenarios.md or models/<name>/README.md:"
      << missing;
  EXPECT_GT(keys.size(), 50u);
}

// The row of docs/defaults.md for `key`, or "" if there is none.
std::string RowOf(const std::string& doc, const std::string& key) {
  std::istringstream lines(doc);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `" + key + "` |", 0) == 0) return line;
  }
  return "";
}

TEST(ScenarioDocs, EveryDefaultIsInTheDefaultsTable) {
  const std::string doc = ReadDoc("defaults.md");
  ASSERT_FALSE(doc.empty()) << "docs/defaults.md is missing";
  for (const scenario::DefaultEntry& d : scenario::DefaultTable()) {
    const std::string row = RowOf(doc, d.key);
    ASSERT_NE(row, "") << d.key << " has no row in docs/defaults.md";
    EXPECT_NE(row.find("`" + std::string(d.value) + "`"), std::string::npos)
        << d.key << ": docs/defaults.md does not show the value " << d.value;
    const std::string confidence = std::string(d.confidence) == "-" ? "–" : d.confidence;
    EXPECT_NE(row.find("| " + confidence + " |"), std::string::npos)
        << d.key << ": confidence " << d.confidence;
  }
}

}  // namespace
}  // namespace mpsim
