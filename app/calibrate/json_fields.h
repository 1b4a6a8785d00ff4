// Reading the fields of a JSON dump with errors that name the file and the
// JSON path of what was wrong, e.g.
// `nodes.json: $.items[3].metadata.creationTimestamp: not a RFC 3339 time`.
// Unknown fields are never an error.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mpsim::calibrate {

// A place in one file's JSON: the file and the path from its root ("$").
struct JsonAt {
  const std::string* file;
  std::string path;

  JsonAt Key(const std::string& key) const { return {file, path + "." + key}; }
  JsonAt Index(size_t i) const { return {file, path + "[" + std::to_string(i) + "]"}; }
  // "file: path: what".
  std::string Error(const std::string& what) const;
};

// obj[key] when obj is an object holding it, else nullptr.
const nlohmann::json* Find(const nlohmann::json& obj, const char* key);

// The member `key` of `obj` (at `at`): an object, array or string as named.
// False with *error set ("missing" or "expected a string") otherwise.
bool RequireObject(const nlohmann::json& obj, const JsonAt& at, const char* key,
                   const nlohmann::json** out, std::string* error);
bool RequireArray(const nlohmann::json& obj, const JsonAt& at, const char* key,
                  const nlohmann::json** out, std::string* error);
bool RequireString(const nlohmann::json& obj, const JsonAt& at, const char* key, std::string* out,
                   std::string* error);
// As RequireString, read as an RFC 3339 time (microseconds since the epoch).
bool RequireTime(const nlohmann::json& obj, const JsonAt& at, const char* key, int64_t* out,
                 std::string* error);

// The same for a member that may be absent (or null): true and nothing set
// when it is; false with *error set when it is there but of the wrong type.
bool OptionalString(const nlohmann::json& obj, const JsonAt& at, const char* key, std::string* out,
                    std::string* error);
bool OptionalTime(const nlohmann::json& obj, const JsonAt& at, const char* key,
                  std::optional<int64_t>* out, std::string* error);

}  // namespace mpsim::calibrate
