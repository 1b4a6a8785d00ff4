// Checks of report.html for tests: its elements nest and close, and it names
// no external resource.
#pragma once

#include <algorithm>
#include <cctype>
#include <regex>
#include <string>
#include <vector>

namespace mpsim::testing {

// Empty when every element opened in `html` is closed in order (void
// elements, self-closed tags, comments and <!DOCTYPE> aside); else what broke.
inline std::string UnbalancedTags(const std::string& html) {
  static const std::vector<std::string> kVoid = {"meta", "br", "hr", "img", "link", "input"};
  std::vector<std::string> open;
  for (size_t i = html.find('<'); i != std::string::npos; i = html.find('<', i + 1)) {
    const size_t end = html.find('>', i);
    if (end == std::string::npos) return "unclosed '<' at " + std::to_string(i);
    const std::string tag = html.substr(i + 1, end - i - 1);
    if (tag.empty() || tag[0] == '!') continue;
    const bool closing = tag[0] == '/';
    size_t n = closing ? 1 : 0;
    while (n < tag.size() && (std::isalnum(static_cast<unsigned char>(tag[n])) != 0)) ++n;
    const std::string name = tag.substr(closing ? 1 : 0, n - (closing ? 1 : 0));
    if (name.empty()) return "a '<' that starts no tag at " + std::to_string(i);
    if (closing) {
      if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open";
      open.pop_back();
    } else if (tag.back() != '/' && std::find(kVoid.begin(), kVoid.end(), name) == kVoid.end()) {
      open.push_back(name);
    }
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

// The src= and href= values in `html` that leave the page (a scheme or //).
inline std::vector<std::string> ExternalReferences(const std::string& html) {
  static const std::regex kRef(R"((src|href)\s*=\s*["']?([^"' >]*))", std::regex::icase);
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), kRef); it != std::sregex_iterator();
       ++it) {
    const std::string v = (*it)[2];
    if (v.find(':') != std::string::npos || v.rfind("//", 0) == 0) out.push_back(v);
  }
  return out;
}

}  // namespace mpsim::testing
