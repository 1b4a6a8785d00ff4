#include "app/calibrate/json_fields.h"

#include "app/calibrate/rfc3339.h"

namespace mpsim::calibrate {

using nlohmann::json;

std::string JsonAt::Error(const std::string& what) const {
  return *file + ": " + path + ": " + what;
}

const json* Find(const json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

namespace {

// The member, or nullptr after "missing" (and the path) in *error.
const json* JsonMember(const json& obj, const JsonAt& at, const char* key, std::string* error) {
  const json* v = Find(obj, key);
  if (v == nullptr) *error = at.Key(key).Error("missing");
  return v;
}

bool JsonTyped(const json* v, bool ok, const JsonAt& at, const char* key, const char* what,
               std::string* error) {
  if (v != nullptr && !ok) *error = at.Key(key).Error(std::string("expected ") + what);
  return v != nullptr && ok;
}

}  // namespace

bool RequireObject(const json& obj, const JsonAt& at, const char* key, const json** out,
                   std::string* error) {
  *out = JsonMember(obj, at, key, error);
  return JsonTyped(*out, *out && (*out)->is_object(), at, key, "an object", error);
}

bool RequireArray(const json& obj, const JsonAt& at, const char* key, const json** out,
                  std::string* error) {
  *out = JsonMember(obj, at, key, error);
  return JsonTyped(*out, *out && (*out)->is_array(), at, key, "an array", error);
}

bool RequireString(const json& obj, const JsonAt& at, const char* key, std::string* out,
                   std::string* error) {
  const json* v = JsonMember(obj, at, key, error);
  if (!JsonTyped(v, v && v->is_string(), at, key, "a string", error)) return false;
  *out = v->get<std::string>();
  return true;
}

bool RequireTime(const json& obj, const JsonAt& at, const char* key, int64_t* out,
                 std::string* error) {
  std::string text;
  if (!RequireString(obj, at, key, &text, error)) return false;
  if (ParseRfc3339(text, out)) return true;
  *error = at.Key(key).Error("not a RFC 3339 time: \"" + text + "\"");
  return false;
}

bool OptionalString(const json& obj, const JsonAt& at, const char* key, std::string* out,
                    std::string* error) {
  if (Find(obj, key) == nullptr) return true;
  return RequireString(obj, at, key, out, error);
}

bool OptionalTime(const json& obj, const JsonAt& at, const char* key, std::optional<int64_t>* out,
                  std::string* error) {
  if (Find(obj, key) == nullptr) return true;
  int64_t t = 0;
  if (!RequireTime(obj, at, key, &t, error)) return false;
  *out = t;
  return true;
}

}  // namespace mpsim::calibrate
