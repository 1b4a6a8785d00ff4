// `mpsim schema` (scenario/json_schema.h): the schema's shape, its keys,
// descriptions and defaults against the protos and the defaults table, and
// every library scenario checked against it by a small walker of the subset
// of JSON Schema it uses (no validator is among the project's packages).
#include "scenario/json_schema.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "models/registry.h"
#include "scenario/defaults.h"
#include "sim/duration.h"

namespace mpsim {
namespace {

using SchemaJson = nlohmann::ordered_json;

const SchemaJson& SchemaUnderTest() {
  static const SchemaJson schema = scenario::ScenarioJsonSchema();
  return schema;
}

// `schema` with its reference followed: a $ref, or one in an allOf beside
// the key's description and default.
const SchemaJson& SchemaResolved(const SchemaJson& schema) {
  if (schema.contains("allOf")) return SchemaResolved(schema.at("allOf").at(0));
  if (!schema.contains("$ref")) return schema;
  const std::string ref = schema.at("$ref");
  const std::string prefix = "#/definitions/";
  EXPECT_EQ(ref.rfind(prefix, 0), 0u) << ref;
  return SchemaUnderTest().at("definitions").at(ref.substr(prefix.size()));
}

// The schema of the value at `key` of a mapping's schema; nullptr when the
// schema rejects the key.
const SchemaJson* SchemaKeyOf(const SchemaJson& unresolved, const std::string& key) {
  const SchemaJson& mapping = SchemaResolved(unresolved);
  if (mapping.contains("properties") && mapping.at("properties").contains(key)) {
    return &mapping.at("properties").at(key);
  }
  if (mapping.contains("additionalProperties") && mapping.at("additionalProperties").is_object()) {
    return &mapping.at("additionalProperties");
  }
  return nullptr;
}

// The schema at a defaults-table path ("spec.machinePools[].replicas").
const SchemaJson* SchemaAtPath(const std::string& path) {
  const SchemaJson* at = &SchemaUnderTest();
  size_t start = 0;
  while (at != nullptr && start < path.size()) {
    if (path.compare(start, 2, "[]") == 0) {
      at = &SchemaResolved(*at).at("items");
      start += 2;
      if (start < path.size() && path[start] == '.') ++start;
      continue;
    }
    const size_t end = std::min(path.find_first_of(".[", start), path.size());
    at = SchemaKeyOf(*at, path.substr(start, end - start));
    start = end < path.size() && path[end] == '.' ? end + 1 : end;
  }
  return at;
}

bool SchemaScalarFits(const YAML::Node& node, const SchemaJson& unresolved) {
  const SchemaJson& schema = SchemaResolved(unresolved);
  const std::string text = node.Scalar();
  if (schema.contains("anyOf") && schema.at("anyOf").at(0).contains("pattern")) {
    const std::regex duration(schema.at("anyOf").at(0).at("pattern").get<std::string>());
    return std::regex_match(text, duration);
  }
  const std::string type = schema.value("type", "");
  if (type == "integer") return std::regex_match(text, std::regex("\\+?[0-9]+"));
  if (type == "number") return std::regex_match(text, std::regex("[-+]?[0-9.]+(e[-+]?[0-9]+)?"));
  if (type == "boolean") return text == "true" || text == "false";
  if (schema.contains("const")) return text == schema.at("const").get<std::string>();
  return type == "string";
}

// A distribution's keys fit one of its kinds' forms.
bool SchemaFormFits(const YAML::Node& node, const SchemaJson& schema) {
  for (const SchemaJson& form : schema.at("anyOf")) {
    const SchemaJson& names = form.at("propertyNames").at("enum");
    bool fits = true;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.Scalar();
      fits &= std::find(names.begin(), names.end(), key) != names.end();
      if (key == "dist")
        fits &= it->second.Scalar() == form.at("properties").at("dist").at("const");
    }
    if (fits) return true;
  }
  return false;
}

// Appends the path of each part of `node` that `schema` rejects.
void SchemaWalk(const YAML::Node& node, const SchemaJson& unresolved, const std::string& path,
                std::vector<std::string>* rejected) {
  const SchemaJson& schema = SchemaResolved(unresolved);
  const std::string type = schema.value("type", "");
  if (node.IsMap()) {
    if (type != "object" || (schema.contains("anyOf") && !SchemaFormFits(node, schema)) ||
        node.size() > schema.value("maxProperties", node.size())) {
      rejected->push_back(path);
      return;
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.Scalar();
      const SchemaJson* sub = SchemaKeyOf(schema, key);
      if (sub == nullptr) {
        rejected->push_back(path + "." + key);
      } else {
        SchemaWalk(it->second, *sub, path + "." + key, rejected);
      }
    }
  } else if (node.IsSequence()) {
    if (type != "array") return rejected->push_back(path);
    for (size_t i = 0; i < node.size(); ++i) {
      SchemaWalk(node[i], schema.at("items"), path + "[" + std::to_string(i) + "]", rejected);
    }
  } else if (node.IsScalar() && !SchemaScalarFits(node, schema)) {
    rejected->push_back(path + " = " + node.Scalar());
  }
}

std::vector<std::string> SchemaRejects(const std::string& yaml) {
  std::vector<std::string> rejected;
  SchemaWalk(YAML::Load(yaml), SchemaUnderTest(), "", &rejected);
  return rejected;
}

TEST(JsonSchema, IsDraft07WithTheFilesFourKeys) {
  const SchemaJson& s = SchemaUnderTest();
  EXPECT_EQ(s.at("$schema"), "http://json-schema.org/draft-07/schema#");
  EXPECT_EQ(s.at("type"), "object");
  EXPECT_EQ(s.at("additionalProperties"), false);
  std::vector<std::string> keys;
  for (auto it = s.at("properties").begin(); it != s.at("properties").end(); ++it) {
    keys.push_back(it.key());
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"apiVersion", "kind", "metadata", "spec"}));
  EXPECT_EQ(s.at("properties").at("apiVersion").at("const"), "mpsim/v1");
  // The text round-trips as JSON.
  EXPECT_EQ(SchemaJson::parse(s.dump()), s);
}

TEST(JsonSchema, SpecKeysAreTheProtosJsonNamesInOrder) {
  // scenario/scenario.proto, message ScenarioSpec.
  std::vector<std::string> keys;
  const SchemaJson& spec = SchemaUnderTest().at("properties").at("spec").at("properties");
  for (auto it = spec.begin(); it != spec.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"seed", "horizon", "controller", "workloadCluster",
                                            "machinePools", "events", "expect", "limits",
                                            "apiServer", "autoscaler"}));
  // The json_name option: providerID, not providerId.
  EXPECT_NE(SchemaAtPath("spec.workloadCluster.providerID"), nullptr);
  EXPECT_EQ(SchemaAtPath("spec.workloadCluster.providerId"), nullptr);
}

TEST(JsonSchema, TheProviderIsOneBlockOfTheRegisteredOnes) {
  const SchemaJson* provider = SchemaAtPath("spec.machinePools[].provider");
  ASSERT_NE(provider, nullptr);
  EXPECT_EQ(provider->at("maxProperties"), 1);
  EXPECT_EQ(provider->at("minProperties"), 1);
  EXPECT_EQ(provider->at("additionalProperties"), false);
  for (const ProviderRegistration& p : Providers()) {
    EXPECT_TRUE(provider->at("properties").contains(p.block)) << p.block;
  }
}

TEST(JsonSchema, DescriptionsAreTheProtosComments) {
  // The comments of WorkloadClusterSpec.node_ready, ControllerSpec.informer_lag
  // and the three lines of ApiServerSpec.max_object_bytes in scenario.proto.
  EXPECT_EQ((*SchemaAtPath("spec.workloadCluster.nodeReady")).at("description"),
            "Node created -> Ready condition true.");
  EXPECT_EQ((*SchemaAtPath("spec.controller.informerLag")).at("description"),
            "Delay from an API-server write to the informer caches seeing it.");
  EXPECT_EQ((*SchemaAtPath("spec.apiServer.maxObjectBytes")).at("description"),
            "etcd's --max-request-bytes: a MachinePool write whose object would be larger, its "
            "JSON size worked out from its lists, fails with \"etcdserver: request is too "
            "large\" (docs/reference/capi-core.md §1.15); 0: no limit.");
  // A trailing comment where there is no leading one (TimelineMatch.kind).
  EXPECT_EQ((*SchemaAtPath("spec.expect[].row.kind")).at("description"),
            "object_kind: MachinePool, Instance, Node, InfraMachinePool, Fault, ...");
}

TEST(JsonSchema, DefaultsAreTheDefaultsTables) {
  // Rows of scenario/defaults.cc, as JSON of the key's type.
  EXPECT_EQ((*SchemaAtPath("spec.horizon")).at("default"), "1h");
  EXPECT_EQ((*SchemaAtPath("spec.controller.maxConcurrentReconciles")).at("default"), 50);
  EXPECT_EQ((*SchemaAtPath("spec.controller.informerLag")).at("default"),
            SchemaJson({{"dist", "exponential"}, {"mean", "50ms"}}));
  EXPECT_EQ((*SchemaAtPath("spec.controller.fixes")).at("default"), SchemaJson::array());
  EXPECT_EQ((*SchemaAtPath("spec.machinePools[].replicas")).at("default"), 1);
  EXPECT_EQ((*SchemaAtPath("spec.workloadCluster.providerID.faults.missing")).at("default"), 0.0);
  for (const scenario::DefaultEntry& d : scenario::DefaultTable()) {
    const SchemaJson* at = SchemaAtPath(d.key);
    ASSERT_NE(at, nullptr) << d.key;
    EXPECT_TRUE(at->contains("default")) << d.key;
  }
}

TEST(JsonSchema, DurationPatternAcceptsWhatTheParserAccepts) {
  const std::regex pattern(scenario::kDurationPattern);
  for (const char* text :
       {"0",  "0s", "250ms", "45s", "10m", "2h",  "1m30s", "1.5s", "90us", "1h2m3s4ms5us",
        "5x", "1",  "-1s",   "",    "1.s", ".5s", "1h 2m", "s",    "1S",   "ms"}) {
    Duration d = 0;
    std::string error;
    EXPECT_EQ(std::regex_match(text, pattern), ParseDuration(text, &d, &error)) << text;
  }
}

TEST(JsonSchema, EveryLibraryScenarioFitsTheSchema) {
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(MPSIM_SOURCE_DIR) +
                                                                     "/scenarios")) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    std::vector<std::string> rejected;
    SchemaWalk(YAML::LoadFile(e.path().string()), SchemaUnderTest(), "", &rejected);
    EXPECT_TRUE(rejected.empty()) << e.path() << ": " << rejected.front();
  }
  EXPECT_GT(files, 50);
}

TEST(JsonSchema, MisspeltKeysBadDurationsAndMixedDistributionsAreRejected) {
  const std::string head = "apiVersion: mpsim/v1\nkind: Scenario\nspec:\n";
  EXPECT_TRUE(SchemaRejects(head + "  workloadCluster: {nodeReady: {dist: constant, value: 5s}}\n")
                  .empty());
  EXPECT_EQ(SchemaRejects(head + "  workloadCluster: {nodeReddy: {dist: constant}}\n"),
            std::vector<std::string>{".spec.workloadCluster.nodeReddy"});
  EXPECT_EQ(SchemaRejects(head + "  horizon: 5x\n"),
            std::vector<std::string>{".spec.horizon = 5x"});
  EXPECT_EQ(SchemaRejects(head + "  workloadCluster: {nodeReady: {dist: constant, median: 5s}}\n"),
            std::vector<std::string>{".spec.workloadCluster.nodeReady"});
  EXPECT_EQ(SchemaRejects(head + "  machinePools: [{provider: {asg: {}, vmss: {}}}]\n"),
            std::vector<std::string>{".spec.machinePools[0].provider"});
}

}  // namespace
}  // namespace mpsim
