#include "scenario/json_schema.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <limits>
#include <map>
#include <string>

#include "scenario/defaults.h"
#include "scenario/proto_docs.h"
#include "scenario/scenario.pb.h"
#include "sim/scenario_checks.h"
#include "sim/scenario_schema.h"

namespace mpsim::scenario {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::OneofDescriptor;
using Json = nlohmann::ordered_json;

constexpr const char* kDistribution = "mpsim.proto.Distribution";

// The two shapes every scenario repeats are written once, under `definitions`.
Json Ref(const char* name) { return Json{{"$ref", std::string("#/definitions/") + name}}; }

Json DurationSchema() {
  // YAML reads a bare 0 as a number; every other duration is text with units.
  return Json{{"anyOf", Json::array({Json{{"type", "string"}, {"pattern", kDurationPattern}},
                                     Json{{"const", 0}}})}};
}

Json ScalarSchema(const FieldDescriptor* f) {
  if (IsDuration(f)) return Ref("duration");
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      return Json{{"type", "string"}};
    case FieldDescriptor::CPPTYPE_INT32:
      return Json{
          {"type", "integer"}, {"minimum", 0}, {"maximum", std::numeric_limits<int32_t>::max()}};
    case FieldDescriptor::CPPTYPE_UINT64:
      return Json{{"type", "integer"}, {"minimum", 0}};
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return Json{{"type", "number"}};
    case FieldDescriptor::CPPTYPE_BOOL:
      return Json{{"type", "boolean"}};
    default:
      return Json::object();
  }
}

Json ScalarJson(const YAML::Node& node, const FieldDescriptor* f) {
  const std::string text = node.IsScalar() ? node.Scalar() : "";
  if (IsDuration(f)) return text;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
    case FieldDescriptor::CPPTYPE_UINT64:
      return std::stoull(text);
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return std::stod(text);
    case FieldDescriptor::CPPTYPE_BOOL:
      return text == "true";
    default:
      return text;
  }
}

// A default's YAML text (DefaultEntry.value) as the JSON value of the key
// `f`, or of one of its elements.
Json DefaultJson(const YAML::Node& node, const FieldDescriptor* f, bool element) {
  if (!element && f->is_map()) {
    Json out = Json::object();
    for (auto it = node.begin(); node.IsMap() && it != node.end(); ++it) {
      out[it->first.Scalar()] = DefaultJson(it->second, f->message_type()->map_value(), true);
    }
    return out;
  }
  if (!element && f->is_repeated()) {
    Json out = Json::array();
    for (auto it = node.begin(); node.IsSequence() && it != node.end(); ++it) {
      out.push_back(DefaultJson(*it, f, true));
    }
    return out;
  }
  if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return ScalarJson(node, f);
  Json out = Json::object();
  for (auto it = node.begin(); node.IsMap() && it != node.end(); ++it) {
    SchemaKey key;
    if (LookupKey({f->message_type(), nullptr}, it->first.Scalar(), &key) && key.field) {
      out[it->first.Scalar()] = DefaultJson(it->second, key.field, false);
    }
  }
  return out;
}

// Each kind's keys: a distribution that names its `dist` takes only those,
// one that does not keeps the default's kind (docs/scenarios.md).
Json DistributionForms() {
  Json forms = Json::array();
  for (const DistributionKind& k : DistributionKinds()) {
    Json keys = Json::array({"dist"});
    for (const std::string& p : k.params) keys.push_back(p);
    forms.push_back(
        Json{{"properties", {{"dist", {{"const", k.name}}}}}, {"propertyNames", {{"enum", keys}}}});
  }
  return forms;
}

// `schema` with its description first (its default goes last). Draft-07
// ignores the siblings of a $ref, so a reference moves into an allOf.
Json Annotated(const std::string& doc, const Json& schema) {
  Json out = Json::object();
  if (!doc.empty()) out["description"] = doc;
  if (schema.contains("$ref")) {
    out["allOf"] = Json::array({schema});
    return out;
  }
  for (auto it = schema.begin(); it != schema.end(); ++it) out[it.key()] = it.value();
  return out;
}

class SchemaWriter {
 public:
  SchemaWriter() {
    for (const DefaultEntry& d : DefaultTable()) defaults_[d.key] = d.value;
  }

  // The value of message `d`, whose YAML path is `path`.
  Json Message(const Descriptor* d, const std::string& path) {
    if (d->full_name() == kDistribution) return Ref("distribution");
    return Mapping(d, path);
  }

  // The mapping of message `d` written out.
  Json Mapping(const Descriptor* d, const std::string& path) {
    const SchemaMap level{d, nullptr};
    Json properties = Json::object();
    for (const std::string& key : KeysOf(level)) {
      SchemaKey k;
      LookupKey(level, key, &k);
      const std::string key_path = JoinKey(path, key);
      properties[key] = k.nested ? Oneof(k.nested, key_path) : Field(k.field, key_path);
    }
    Json out{{"type", "object"}, {"additionalProperties", false}, {"properties", properties}};
    if (d->full_name() == kDistribution) {
      Json kinds = Json::array();
      for (const DistributionKind& k : DistributionKinds()) kinds.push_back(k.name);
      out["properties"]["dist"]["enum"] = kinds;
      out["anyOf"] = DistributionForms();
    }
    return out;
  }

 private:
  Json Field(const FieldDescriptor* f, const std::string& path) {
    Json schema;
    if (f->is_map()) {
      schema = Json{
          {"type", "object"},
          {"additionalProperties", Element(f->message_type()->map_value(), JoinKey(path, "*"))}};
    } else if (f->is_repeated()) {
      schema = Json{{"type", "array"}, {"items", Element(f, path + "[]")}};
    } else {
      schema = Element(f, path);
    }
    std::string doc = DocOf(f);
    if (doc.empty() && f->message_type() != nullptr && !f->is_map()) {
      doc = DocOf(f->message_type());
    }
    Json out = Annotated(doc, schema);
    auto found = defaults_.find(path);
    if (found != defaults_.end()) out["default"] = DefaultJson(YAML::Load(found->second), f, false);
    return out;
  }

  Json Element(const FieldDescriptor* f, const std::string& path) {
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) return Message(f->message_type(), path);
    return ScalarSchema(f);
  }

  // A oneof written as its own mapping: exactly one of its members.
  Json Oneof(const OneofDescriptor* o, const std::string& path) {
    Json properties = Json::object();
    for (const std::string& key : KeysOf({o->containing_type(), o})) {
      SchemaKey k;
      LookupKey({o->containing_type(), o}, key, &k);
      properties[key] = Field(k.field, JoinKey(path, key));
    }
    return Annotated(DocOf(o), Json{{"type", "object"},
                                    {"additionalProperties", false},
                                    {"minProperties", 1},
                                    {"maxProperties", 1},
                                    {"properties", properties}});
  }

  std::map<std::string, std::string> defaults_;  // DefaultEntry value by key
};

}  // namespace

Json ScenarioJsonSchema() {
  Json out{{"$schema", "http://json-schema.org/draft-07/schema#"},
           {"title", "mpsim scenario"},
           {"description",
            "A scenario file of mpsim (docs/scenarios.md); durations are strings with units "
            "(250ms, 45s, 10m, 2h)."}};
  SchemaWriter writer;
  const Json body = writer.Mapping(proto::Scenario::descriptor(), "");
  for (auto it = body.begin(); it != body.end(); ++it) out[it.key()] = it.value();
  out["definitions"] =
      Json{{"duration", DurationSchema()},
           {"distribution", writer.Mapping(proto::Distribution::descriptor(), "")}};
  // scenario/validate.cc accepts these two values only.
  out["properties"]["apiVersion"]["const"] = "mpsim/v1";
  out["properties"]["kind"]["const"] = "Scenario";
  return out;
}

}  // namespace mpsim::scenario
