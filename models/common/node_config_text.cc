#include "models/common/node_config_text.h"

#include <cctype>

namespace mpsim {
namespace {

bool Alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// A label name or value (k8s.io/apimachinery validation.IsQualifiedName's
// name part): at most 63 characters, alphanumerics with '-', '_' or '.'
// between; values may also be empty.
bool LabelName(std::string_view s) {
  if (s.empty() || s.size() > 63 || !Alnum(s.front()) || !Alnum(s.back())) return false;
  for (char c : s) {
    if (!Alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// An optional DNS-subdomain prefix ("example.com/"), then a name.
bool LabelKey(std::string_view key) {
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos) return LabelName(key);
  const std::string_view prefix = key.substr(0, slash);
  if (prefix.empty() || prefix.size() > 253 || !Alnum(prefix.front()) || !Alnum(prefix.back())) {
    return false;
  }
  for (char c : prefix) {
    if ((!Alnum(c) || std::isupper(static_cast<unsigned char>(c))) && c != '-' && c != '.') {
      return false;
    }
  }
  return LabelName(key.substr(slash + 1));
}

bool LabelValue(std::string_view v) { return v.empty() || LabelName(v); }

bool Fail(std::string* error, std::string why) {
  *error = std::move(why);
  return false;
}

}  // namespace

std::vector<std::string_view> CommaItems(std::string_view text) {
  std::vector<std::string_view> items;
  if (text.empty()) return items;
  size_t start = 0;
  for (size_t comma = text.find(','); comma != std::string_view::npos;
       comma = text.find(',', start)) {
    items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  items.push_back(text.substr(start));
  return items;
}

bool ParseLabelsText(std::string_view text, Labels* out, std::string* error) {
  out->clear();
  for (std::string_view item : CommaItems(text)) {
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return Fail(error, "label \"" + std::string(item) + "\" is not key=value");
    }
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    if (!LabelKey(key)) return Fail(error, "bad label key \"" + std::string(key) + "\"");
    if (!LabelValue(value)) return Fail(error, "bad label value \"" + std::string(value) + "\"");
    if (!out->emplace(key, value).second) {
      return Fail(error, "label key \"" + std::string(key) + "\" given twice");
    }
  }
  return true;
}

bool ParseTaintsText(std::string_view text, std::vector<Taint>* out, std::string* error) {
  out->clear();
  for (std::string_view item : CommaItems(text)) {
    const size_t colon = item.rfind(':');
    if (colon == std::string_view::npos) {
      return Fail(error, "taint \"" + std::string(item) + "\" is not key[=value]:Effect");
    }
    Taint t;
    t.effect = item.substr(colon + 1);
    const std::string_view kv = item.substr(0, colon);
    const size_t eq = kv.find('=');
    t.key = kv.substr(0, eq);
    if (eq != std::string_view::npos) t.value = kv.substr(eq + 1);
    if (!LabelKey(t.key)) return Fail(error, "bad taint key \"" + t.key + "\"");
    if (!LabelValue(t.value)) return Fail(error, "bad taint value \"" + t.value + "\"");
    if (t.effect != "NoSchedule" && t.effect != "PreferNoSchedule" && t.effect != "NoExecute") {
      return Fail(error, "taint effect \"" + t.effect +
                             "\" is not NoSchedule, PreferNoSchedule or NoExecute");
    }
    out->push_back(std::move(t));
  }
  return true;
}

std::string LabelsText(const Labels& labels) {
  std::string s;
  for (const auto& [k, v] : labels) s += (s.empty() ? "" : ",") + k.str() + "=" + v.str();
  return s;
}

std::string TaintsText(const std::vector<Taint>& taints) {
  std::string s;
  for (const Taint& t : taints) {
    s += (s.empty() ? "" : ",") + t.key + (t.value.empty() ? "" : "=" + t.value) + ":" + t.effect;
  }
  return s;
}

}  // namespace mpsim
