#include "models/mig/gke_config_text.h"

#include <algorithm>

#include "models/common/node_config_text.h"

namespace mpsim {
namespace {

bool Lower(char c) { return c >= 'a' && c <= 'z'; }
bool Digit(char c) { return c >= '0' && c <= '9'; }

bool FailWith(std::string* error, std::string why) {
  *error = std::move(why);
  return false;
}

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

// GCE label keys and values: lowercase letters, digits, '_' and '-' (the
// international characters GCE also takes are left out).
bool LabelChars(std::string_view s) {
  for (char c : s) {
    if (!Lower(c) && !Digit(c) && c != '_' && c != '-') return false;
  }
  return true;
}

bool ResourceLabelKey(std::string_view k) {
  return !k.empty() && k.size() <= 63 && Lower(k.front()) && LabelChars(k);
}

bool ResourceLabelValue(std::string_view v) { return v.size() <= 63 && LabelChars(v); }

// RFC 1035 names: network tags and GCE zone names follow the same rule.
bool Rfc1035Name(std::string_view t) {
  if (t.empty() || t.size() > 63 || !Lower(t.front()) || t.back() == '-') return false;
  for (char c : t) {
    if (!Lower(c) && !Digit(c) && c != '-') return false;
  }
  return true;
}

bool SysctlName(std::string_view n) {
  if (n.empty() || !Lower(n.front()) || n.back() == '.') return false;
  for (char c : n) {
    if (!Lower(c) && !Digit(c) && c != '_' && c != '.') return false;
  }
  return true;
}

// Splits "k=v" items into a map; `what` names an item in messages, and
// `key_ok`/`value_ok` are the rules of its two halves.
template <typename KeyOk, typename ValueOk>
bool ParsePairs(std::string_view text, const char* what, KeyOk key_ok, ValueOk value_ok,
                std::map<std::string, std::string>* out, std::string* error) {
  out->clear();
  for (std::string_view item : CommaItems(text)) {
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return FailWith(error, std::string(what) + " " + Quote(item) + " is not key=value");
    }
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    if (!key_ok(key)) return FailWith(error, std::string("bad ") + what + " key " + Quote(key));
    if (!value_ok(value)) {
      return FailWith(error, std::string("bad ") + what + " value " + Quote(value));
    }
    if (!out->emplace(key, value).second) {
      return FailWith(error, std::string(what) + " key " + Quote(key) + " given twice");
    }
  }
  return true;
}

}  // namespace

bool ParseResourceLabelsText(std::string_view text, ResourceLabels* out, std::string* error) {
  return ParsePairs(text, "resource label", ResourceLabelKey, ResourceLabelValue, out, error);
}

bool ParseNetworkTagsText(std::string_view text, std::vector<std::string>* out,
                          std::string* error) {
  out->clear();
  for (std::string_view tag : CommaItems(text)) {
    if (!Rfc1035Name(tag)) return FailWith(error, "bad network tag " + Quote(tag));
    for (const std::string& seen : *out) {
      if (seen == tag) return FailWith(error, "network tag " + Quote(tag) + " given twice");
    }
    out->emplace_back(tag);
  }
  return true;
}

bool ParseSysctlsText(std::string_view text, Sysctls* out, std::string* error) {
  const auto value_ok = [](std::string_view v) { return !v.empty(); };
  return ParsePairs(text, "sysctl", SysctlName, value_ok, out, error);
}

bool ParseNodeLocationsText(std::string_view text, std::vector<std::string>* out,
                            std::string* error) {
  out->clear();
  for (std::string_view zone : CommaItems(text)) {
    if (!Rfc1035Name(zone)) return FailWith(error, "bad zone name " + Quote(zone));
    if (std::find(out->begin(), out->end(), zone) != out->end()) {
      return FailWith(error, "zone " + Quote(zone) + " given twice");
    }
    out->emplace_back(zone);
  }
  if (out->empty()) return FailWith(error, "list at least one zone");
  return true;
}

bool IsCgroupMode(std::string_view mode) {
  return mode.empty() || mode == "CGROUP_MODE_V1" || mode == "CGROUP_MODE_V2";
}

std::string MapText(const std::map<std::string, std::string>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

std::string ListText(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? "" : ",") + item;
  return s;
}

}  // namespace mpsim
