#include "sim/yaml_to_proto.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <set>

#include "sim/duration.h"

namespace mpsim::scenario {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::OneofDescriptor;
using google::protobuf::Reflection;

// One scalar, already checked against the field's type.
struct ScalarValue {
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  bool b = false;
  std::string s;
};

std::string Describe(const YAML::Node& n) {
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  if (!n.IsScalar()) return "nothing";
  return n.Tag() == "!" ? "the quoted string " + Quote(n.Scalar()) : Quote(n.Scalar());
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool ParseUnsigned(const YAML::Node& n, uint64_t max, uint64_t* out, std::string* why) {
  const std::string text = n.IsScalar() ? n.Scalar() : "";
  const bool plain = n.IsScalar() && n.Tag() != "!";
  const char* begin = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), *out);
  const bool digits =
      plain && ec != std::errc::invalid_argument && end == text.data() + text.size();
  if (!digits) {
    *why = "expected a non-negative integer, got " + Describe(n);
  } else if (ec == std::errc::result_out_of_range || *out > max) {
    *why = "expected an integer no larger than " + std::to_string(max) + ", got " + Quote(text);
  }
  return why->empty();
}

bool ParseDurationNode(const YAML::Node& n, int64_t* out, std::string* why) {
  std::string error;
  if (!n.IsScalar()) {
    *why = "expected a duration such as 45s, got " + Describe(n);
  } else if (!ParseDuration(n.Scalar(), out, &error)) {
    *why = "expected a duration such as 45s, got " + Quote(n.Scalar()) + " (" + error + ")";
  } else if (*out < 0) {
    *why = "expected a non-negative duration, got " + Quote(n.Scalar());
  } else if (*out > kMaxScenarioDuration) {
    *why = "expected a duration of at most 30 days (720h), got " + Quote(n.Scalar());
  }
  return why->empty();
}

bool ParseNumber(const YAML::Node& n, double* out, std::string* why) {
  const std::string text = n.IsScalar() ? n.Scalar() : "";
  const std::string lower = Lower(text);
  const char* begin = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), *out);
  const bool whole = n.IsScalar() && n.Tag() != "!" && end == text.data() + text.size();
  if (whole && ec == std::errc() && std::isfinite(*out)) return true;
  const bool not_finite = lower.find("nan") != std::string::npos ||
                          lower.find("inf") != std::string::npos ||
                          ec == std::errc::result_out_of_range;
  const char* expected =
      not_finite && n.IsScalar() ? "expected a finite number" : "expected a number";
  *why = std::string(expected) + ", got " + Describe(n);
  return false;
}

bool ParseBool(const YAML::Node& n, bool* out, std::string* why) {
  const std::string lower = n.IsScalar() && n.Tag() != "!" ? Lower(n.Scalar()) : "";
  if (lower == "true" || lower == "false") {
    *out = lower == "true";
    return true;
  }
  *why = "expected true or false, got " + Describe(n);
  return false;
}

bool ParseScalar(const YAML::Node& n, const FieldDescriptor* f, ScalarValue* v, std::string* why) {
  if (IsDuration(f)) return ParseDurationNode(n, &v->i, why);
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      if (n.IsScalar()) v->s = n.Scalar();
      if (!n.IsScalar()) *why = "expected a string, got " + Describe(n);
      return n.IsScalar();
    case FieldDescriptor::CPPTYPE_INT32:
      return ParseUnsigned(n, std::numeric_limits<int32_t>::max(), &v->u, why);
    case FieldDescriptor::CPPTYPE_UINT64:
      return ParseUnsigned(n, std::numeric_limits<uint64_t>::max(), &v->u, why);
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return ParseNumber(n, &v->d, why);
    case FieldDescriptor::CPPTYPE_BOOL:
      return ParseBool(n, &v->b, why);
    default:
      *why = "internal error: the schema uses an unsupported field type";
      return false;
  }
}

// Sets (or, for a list, appends) a checked scalar.
void SetScalar(Message* msg, const FieldDescriptor* f, const ScalarValue& v) {
  const Reflection* r = msg->GetReflection();
  const bool add = f->is_repeated();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      add ? r->AddString(msg, f, v.s) : r->SetString(msg, f, v.s);
      break;
    case FieldDescriptor::CPPTYPE_INT32:
      add ? r->AddInt32(msg, f, static_cast<int32_t>(v.u))
          : r->SetInt32(msg, f, static_cast<int32_t>(v.u));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      add ? r->AddUInt64(msg, f, v.u) : r->SetUInt64(msg, f, v.u);
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      add ? r->AddInt64(msg, f, v.i) : r->SetInt64(msg, f, v.i);
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      add ? r->AddDouble(msg, f, v.d) : r->SetDouble(msg, f, v.d);
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      add ? r->AddBool(msg, f, v.b) : r->SetBool(msg, f, v.b);
      break;
    default:
      break;
  }
}

std::string MemberList(const OneofDescriptor* o) {
  std::string list;
  for (int i = 0; i < o->field_count(); ++i) {
    if (i > 0) list += i + 1 == o->field_count() ? " or " : ", ";
    list += o->field(i)->json_name();
  }
  return list;
}

class Converter {
 public:
  explicit Converter(std::vector<Issue>* issues) : issues_(issues) {}

  void Mapping(const YAML::Node& node, const std::string& path, Message* msg, SchemaMap level) {
    if (node.IsNull()) return;  // `key:` with nothing after it: an empty mapping
    if (!node.IsMap()) return Add(path, "expected a mapping, got " + Describe(node));
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (!it->first.IsScalar()) {
        Add(path, "expected plain keys, got " + Describe(it->first) + " as a key");
        continue;
      }
      const std::string& name = it->first.Scalar();
      const std::string key_path = JoinKey(path, name);
      if (!seen.insert(name).second) {
        Add(key_path, "duplicate key " + Quote(name));
        continue;
      }
      Entry(name, it->second, key_path, msg, level);
    }
  }

 private:
  void Add(const std::string& path, std::string message) {
    issues_->push_back({path, std::move(message), ""});
  }

  void Entry(const std::string& name, const YAML::Node& value, const std::string& path,
             Message* msg, SchemaMap level) {
    SchemaKey key;
    if (!LookupKey(level, name, &key)) {
      return Add(path, "unknown key " + Quote(name) + DidYouMean(name, KeysOf(level)));
    }
    if (key.nested != nullptr) return Mapping(value, path, msg, {level.message, key.nested});
    if (ClaimOneof(msg, key.field, path)) Field(value, path, msg, key.field);
  }

  // A second member of a oneof would silently replace the first.
  bool ClaimOneof(Message* msg, const FieldDescriptor* f, const std::string& path) {
    const OneofDescriptor* o = f->real_containing_oneof();
    if (o == nullptr) return true;
    const FieldDescriptor* current = msg->GetReflection()->GetOneofFieldDescriptor(*msg, o);
    if (current == nullptr || current == f) return true;
    Add(path, "give only one of " + MemberList(o) + "; found both " + Quote(current->json_name()) +
                  " and " + Quote(f->json_name()));
    return false;
  }

  void Field(const YAML::Node& value, const std::string& path, Message* msg,
             const FieldDescriptor* f) {
    if (f->is_map()) return MapField(value, path, msg, f);
    if (f->is_repeated()) return ListField(value, path, msg, f);
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      return Mapping(value, path, msg->GetReflection()->MutableMessage(msg, f),
                     {f->message_type(), nullptr});
    }
    Scalar(value, path, msg, f);
  }

  void Scalar(const YAML::Node& value, const std::string& path, Message* msg,
              const FieldDescriptor* f) {
    ScalarValue v;
    std::string why;
    if (ParseScalar(value, f, &v, &why)) {
      SetScalar(msg, f, v);
    } else {
      Add(path, why);
    }
  }

  void ListField(const YAML::Node& value, const std::string& path, Message* msg,
                 const FieldDescriptor* f) {
    if (value.IsNull()) return;
    if (!value.IsSequence()) return Add(path, "expected a list, got " + Describe(value));
    size_t index = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++index) {
      const std::string item_path = JoinIndex(path, index);
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        Mapping(*it, item_path, msg->GetReflection()->AddMessage(msg, f), {f->message_type()});
      } else {
        Scalar(*it, item_path, msg, f);
      }
    }
  }

  void MapField(const YAML::Node& value, const std::string& path, Message* msg,
                const FieldDescriptor* f) {
    if (value.IsNull()) return;
    if (!value.IsMap()) return Add(path, "expected a mapping, got " + Describe(value));
    const FieldDescriptor* key_field = f->message_type()->map_key();
    const FieldDescriptor* value_field = f->message_type()->map_value();
    std::set<std::string> seen;
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (!it->first.IsScalar()) {
        Add(path, "expected plain keys, got " + Describe(it->first) + " as a key");
        continue;
      }
      const std::string entry_path = JoinKey(path, it->first.Scalar());
      ScalarValue v;
      std::string why;
      if (!seen.insert(it->first.Scalar()).second) {
        Add(entry_path, "duplicate key " + Quote(it->first.Scalar()));
      } else if (!ParseScalar(it->second, value_field, &v, &why)) {
        Add(entry_path, why);
      } else {
        Message* entry = msg->GetReflection()->AddMessage(msg, f);
        entry->GetReflection()->SetString(entry, key_field, it->first.Scalar());
        SetScalar(entry, value_field, v);
      }
    }
  }

  std::vector<Issue>* issues_;
};

}  // namespace

void YamlToMessage(const YAML::Node& node, const std::string& path, Message* msg,
                   std::vector<Issue>* issues) {
  Converter(issues).Mapping(node, path, msg, {msg->GetDescriptor(), nullptr});
}

std::string Quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace mpsim::scenario
