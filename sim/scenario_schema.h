// How YAML keys and paths such as "spec.machinePools[0].replicas" map onto the
// scenario message: shared by the converter, --set overrides and defaults.
#pragma once

#include <google/protobuf/descriptor.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mpsim::scenario {

// A problem found while loading, before it is given a file position.
struct Issue {
  std::string path;     // YAML path of the offending key
  std::string message;  // what was expected
  std::string origin;   // "--set ..." when the text came from an override; else empty
};

// One mapping level of the schema: a message, or the members of a oneof that
// YAML nests under a key of its own (MachinePoolSpec.provider).
struct SchemaMap {
  const google::protobuf::Descriptor* message = nullptr;
  const google::protobuf::OneofDescriptor* oneof = nullptr;  // set: only its members
};

// What one YAML key of a mapping level names: a field, or a nested oneof.
struct SchemaKey {
  const google::protobuf::FieldDescriptor* field = nullptr;
  const google::protobuf::OneofDescriptor* nested = nullptr;
};

// True for a oneof written as its own mapping (`provider: {<block>: ...}`).
bool IsNestedOneof(const google::protobuf::OneofDescriptor* oneof);

// True for fields YAML spells as durations: every int64 of the schema.
bool IsDuration(const google::protobuf::FieldDescriptor* field);

// Finds `key` (a json_name) in `level`; false if the level has no such key.
bool LookupKey(const SchemaMap& level, std::string_view key, SchemaKey* out);

// Every key `level` accepts, in declaration order.
std::vector<std::string> KeysOf(const SchemaMap& level);

// "; did you mean \"x\"?" for the candidate closest to `word`, or "" if none is close.
std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates);

// "a.b" from "a" and "b"; "b" from "" and "b".
std::string JoinKey(const std::string& parent, std::string_view key);
// "a[3]" from "a" and 3.
std::string JoinIndex(const std::string& parent, size_t index);
// True if `path` is `prefix` or lies below it.
bool IsUnderPath(std::string_view path, std::string_view prefix);
// `path` without its last key or index; "" for a top-level key.
std::string ParentPath(std::string_view path);

// One step of a resolved path.
struct PathStep {
  enum class Kind { kKey, kIndex, kEach };
  Kind kind = Kind::kKey;
  std::string key;        // kKey
  size_t index = 0;       // kIndex
  bool in_oneof = false;  // kKey naming a oneof member: defaults never create it
};

// Parses a path ("spec.machinePools[0].replicas"; "[]" means every element) and
// checks each step against the schema of `root` (the Scenario message). On
// failure says why in *error.
bool ResolvePath(const google::protobuf::Descriptor* root, std::string_view text,
                 std::vector<PathStep>* steps, std::string* error);

// One row of the defaults table (docs/defaults.md): where it goes, its value
// and why it is that value. Each provider block's rows live in its folder.
struct DefaultEntry {
  const char* key;       // YAML path; "[]" stands for every element of a list
  const char* value;     // YAML text
  const char* upstream;  // the upstream default where mpsim's differs, else ""
  const char* source;    // where the value comes from
  const char*
      confidence;  // H, M or L as in docs/reference/providers.md §4; "-" for mpsim's own choices
};

// The canonical spelling of resolved steps.
std::string PathString(const std::vector<PathStep>& steps);

}  // namespace mpsim::scenario
