#include "sim/scenario_schema.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace mpsim::scenario {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::OneofDescriptor;

// Members of a nested oneof are keys of the oneof's mapping, not of the message.
bool HiddenInMessage(const FieldDescriptor* f) {
  return f->real_containing_oneof() != nullptr && IsNestedOneof(f->real_containing_oneof());
}

// Optimal-string-alignment distance, case-insensitive: a swap of two adjacent
// letters counts as one edit, the commonest typo ("medain" is "median").
size_t EditDistance(std::string_view a, std::string_view b) {
  auto same = [&](size_t i, size_t j) {
    return std::tolower(static_cast<unsigned char>(a[i])) ==
           std::tolower(static_cast<unsigned char>(b[j]));
  };
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(i - 1, j - 1) ? 0 : 1)});
      if (i > 1 && j > 1 && same(i - 1, j - 2) && same(i - 2, j - 1)) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// A path as written: names and bracketed indices, not yet checked against the schema.
struct RawSegment {
  bool bracket = false;  // "[N]" or "[]"
  bool each = false;     // "[]"
  std::string name;
  size_t index = 0;
};

bool ParseBracket(std::string_view text, size_t* pos, RawSegment* seg, std::string* error) {
  const size_t close = text.find(']', *pos);
  if (close == std::string_view::npos) {
    *error = "missing ']' in \"" + std::string(text) + "\"";
    return false;
  }
  const std::string_view inside = text.substr(*pos + 1, close - *pos - 1);
  seg->bracket = true;
  seg->each = inside.empty();
  if (!seg->each) {
    auto [end, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), seg->index);
    if (ec != std::errc() || end != inside.data() + inside.size()) {
      *error = "expected a list index such as [0], got [" + std::string(inside) + "]";
      return false;
    }
  }
  *pos = close + 1;
  return true;
}

bool SplitPath(std::string_view text, std::vector<RawSegment>* out, std::string* error) {
  size_t pos = 0;
  while (pos < text.size()) {
    RawSegment seg;
    if (text[pos] == '[') {
      if (!ParseBracket(text, &pos, &seg, error)) return false;
    } else {
      const size_t end = std::min(text.find_first_of(".[", pos), text.size());
      seg.name = std::string(text.substr(pos, end - pos));
      if (seg.name.empty()) {
        *error = "empty key in path \"" + std::string(text) + "\"";
        return false;
      }
      pos = end;
    }
    out->push_back(seg);
    if (pos < text.size() && text[pos] == '.') {
      if (++pos == text.size()) {
        *error = "path \"" + std::string(text) + "\" ends with '.'";
        return false;
      }
    }
  }
  if (out->empty()) *error = "empty path";
  return !out->empty();
}

// Where a path walk stands: in a mapping of the schema, before the value of a
// list or map field, or at a single value.
struct WalkState {
  enum class At { kMapping, kList, kMapValues, kLeaf };
  At at = At::kMapping;
  SchemaMap level;
  const FieldDescriptor* field = nullptr;
};

// The state after naming `f` or one of its elements.
WalkState ValueOf(const FieldDescriptor* f, bool element) {
  WalkState s;
  s.field = f;
  if (!element && f->is_map()) {
    s.at = WalkState::At::kMapValues;
  } else if (!element && f->is_repeated()) {
    s.at = WalkState::At::kList;
  } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    s.at = WalkState::At::kMapping;
    s.level = {f->message_type(), nullptr};
  } else {
    s.at = WalkState::At::kLeaf;
  }
  return s;
}

bool StepMapping(const RawSegment& seg, const std::string& where, WalkState* s,
                 std::vector<PathStep>* steps, std::string* error) {
  SchemaKey key;
  if (seg.bracket || !LookupKey(s->level, seg.name, &key)) {
    const std::string what = seg.bracket ? "a list index" : "\"" + seg.name + "\"";
    *error = (where.empty() ? "the top level" : where) + " has no key " + what +
             (seg.bracket ? "" : DidYouMean(seg.name, KeysOf(s->level)));
    return false;
  }
  PathStep step{PathStep::Kind::kKey, seg.name};
  if (key.nested != nullptr) {
    s->level = {s->level.message, key.nested};
  } else {
    step.in_oneof = key.field->real_containing_oneof() != nullptr;
    *s = ValueOf(key.field, false);
  }
  steps->push_back(step);
  return true;
}

bool Step(const RawSegment& seg, const std::string& where, WalkState* s,
          std::vector<PathStep>* steps, std::string* error) {
  switch (s->at) {
    case WalkState::At::kMapping:
      return StepMapping(seg, where, s, steps, error);
    case WalkState::At::kList:
      if (!seg.bracket) {
        *error = where + " is a list; expected an index such as [0] after it";
        return false;
      }
      steps->push_back({seg.each ? PathStep::Kind::kEach : PathStep::Kind::kIndex, "", seg.index});
      *s = ValueOf(s->field, true);
      return true;
    case WalkState::At::kMapValues:
      if (seg.bracket) {
        *error = where + " is a mapping, not a list";
        return false;
      }
      steps->push_back({PathStep::Kind::kKey, seg.name});
      *s = ValueOf(s->field->message_type()->map_value(), true);
      return true;
    case WalkState::At::kLeaf:
      break;
  }
  *error = where + " holds a single value; it has nothing below it";
  return false;
}

}  // namespace

bool IsNestedOneof(const OneofDescriptor* oneof) {
  return oneof != nullptr && oneof->full_name() == "mpsim.proto.MachinePoolSpec.provider";
}

bool IsDuration(const FieldDescriptor* field) {
  return field->cpp_type() == FieldDescriptor::CPPTYPE_INT64;
}

bool LookupKey(const SchemaMap& level, std::string_view key, SchemaKey* out) {
  *out = SchemaKey{};
  if (level.oneof != nullptr) {
    for (int i = 0; i < level.oneof->field_count(); ++i) {
      if (level.oneof->field(i)->json_name() == key) out->field = level.oneof->field(i);
    }
    return out->field != nullptr;
  }
  const Descriptor* d = level.message;
  for (int i = 0; i < d->field_count(); ++i) {
    if (!HiddenInMessage(d->field(i)) && d->field(i)->json_name() == key) out->field = d->field(i);
  }
  for (int i = 0; i < d->real_oneof_decl_count(); ++i) {
    if (IsNestedOneof(d->oneof_decl(i)) && d->oneof_decl(i)->name() == key) {
      out->nested = d->oneof_decl(i);
    }
  }
  return out->field != nullptr || out->nested != nullptr;
}

std::vector<std::string> KeysOf(const SchemaMap& level) {
  std::vector<std::string> keys;
  if (level.oneof != nullptr) {
    for (int i = 0; i < level.oneof->field_count(); ++i) {
      keys.push_back(level.oneof->field(i)->json_name());
    }
    return keys;
  }
  for (int i = 0; i < level.message->field_count(); ++i) {
    const FieldDescriptor* f = level.message->field(i);
    if (!HiddenInMessage(f)) keys.push_back(f->json_name());
  }
  for (int i = 0; i < level.message->real_oneof_decl_count(); ++i) {
    const OneofDescriptor* o = level.message->oneof_decl(i);
    if (IsNestedOneof(o)) keys.push_back(o->name());
  }
  return keys;
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  size_t best_distance = 0;
  for (const std::string& c : candidates) {
    const size_t d = EditDistance(word, c);
    if (best == nullptr || d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  // Beyond about a third of the word the "suggestion" is noise.
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  if (best == nullptr || best_distance > limit) return "";
  return "; did you mean \"" + *best + "\"?";
}

std::string JoinKey(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string JoinIndex(const std::string& parent, size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

bool IsUnderPath(std::string_view path, std::string_view prefix) {
  if (prefix.empty()) return true;
  if (path.substr(0, prefix.size()) != prefix) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[';
}

std::string ParentPath(std::string_view path) {
  const size_t cut = path.find_last_of(".[");
  return cut == std::string_view::npos ? "" : std::string(path.substr(0, cut));
}

bool ResolvePath(const Descriptor* root, std::string_view text, std::vector<PathStep>* steps,
                 std::string* error) {
  std::vector<RawSegment> raw;
  if (!SplitPath(text, &raw, error)) return false;
  WalkState state;
  state.level = {root, nullptr};
  steps->clear();
  for (const RawSegment& seg : raw) {
    if (!Step(seg, PathString(*steps), &state, steps, error)) return false;
  }
  return true;
}

std::string PathString(const std::vector<PathStep>& steps) {
  std::string path;
  for (const PathStep& s : steps) {
    if (s.kind == PathStep::Kind::kKey) path = JoinKey(path, s.key);
    if (s.kind == PathStep::Kind::kIndex) path = JoinIndex(path, s.index);
    if (s.kind == PathStep::Kind::kEach) path += "[]";
  }
  return path;
}

}  // namespace mpsim::scenario
