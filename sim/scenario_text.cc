#include "sim/scenario_text.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace mpsim::scenario {
namespace {

// Length of the UTF-8 sequence that starts with `lead`, or 0 if none does.
int SequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

// Offset of the first byte that cannot be part of YAML text, or npos.
size_t FirstBadByte(const std::string& text) {
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const bool control = (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
    const int n = SequenceLength(c);
    if (control || n == 0 || i + n > text.size()) return i;
    for (int k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return i;
    }
    i += n;
  }
  return std::string::npos;
}

TextPosition PositionOfOffset(const std::string& text, size_t offset) {
  TextPosition p{1, 1};
  for (size_t i = 0; i < offset; ++i) {
    p.column = text[i] == '\n' ? 1 : p.column + 1;
    p.line += text[i] == '\n' ? 1 : 0;
  }
  return p;
}

// Whether the 0-based line `line` of `text` is indented with a tab.
bool TabIndented(const std::string& text, int line) {
  size_t start = 0;
  for (int l = 0; l < line && start != std::string::npos; ++l) {
    start = text.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (start == std::string::npos || line < 0) return false;
  const size_t end = text.find_first_not_of(" \t", start);
  return text.substr(start, end - start).find('\t') != std::string::npos;
}

ScenarioError At(const std::string& file, TextPosition p, std::string message) {
  return {file, std::max(p.line, 1), std::max(p.column, 1), "", std::move(message)};
}

ScenarioError SyntaxError(const std::string& text, const std::string& file,
                          const YAML::ParserException& e) {
  std::string message = "YAML syntax error: " + e.msg;
  if (TabIndented(text, e.mark.line) || TabIndented(text, e.mark.line - 1)) {
    message += " (this line or the one before is indented with a tab; YAML indents with spaces)";
  }
  return At(file, PositionOf(e.mark), message);
}

bool CheckBytes(const std::string& text, const std::string& file, const char* what,
                std::vector<ScenarioError>* errors) {
  const size_t bad = FirstBadByte(text);
  if (bad == std::string::npos) return true;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(text[bad]));
  errors->push_back(At(file, PositionOfOffset(text, bad),
                       std::string("not a text file: byte ") + byte + " cannot appear in " + what +
                           ", which is UTF-8 YAML text"));
  return false;
}

// Records where each YAML document starts and ignores the rest.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;

  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Checks that the text holds one YAML document. yaml-cpp's LoadAll never
// returns on a ',' outside any flow collection: every "document" it reads
// there consumes nothing. So read at most three documents' events, and call a
// document that starts where the one before did a syntax error.
bool CheckOneDocument(const std::string& text, const std::string& file,
                      std::vector<ScenarioError>* errors) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts docs;
  while (docs.starts.size() < 3 && parser.HandleNextDocument(docs)) {
  }
  for (size_t i = 1; i < docs.starts.size(); ++i) {
    const YAML::Mark& m = docs.starts[i];
    if (m.pos != docs.starts[i - 1].pos) continue;
    const char c = m.pos >= 0 && static_cast<size_t>(m.pos) < text.size() ? text[m.pos] : '?';
    errors->push_back(At(file, PositionOf(m),
                         std::string("YAML syntax error: unexpected '") + c +
                             "' outside a flow collection ({...} or [...])"));
    return false;
  }
  if (docs.starts.size() > 1) {
    errors->push_back(At(file, PositionOf(docs.starts[1]),
                         "a second YAML document starts here; a scenario file holds one"));
    return false;
  }
  return true;
}

// Aliases can make a YAML graph cyclic or exponentially large; a scenario is a
// small tree, so its walks must never meet either.
constexpr int kMaxDepth = 64;
constexpr size_t kMaxNodes = 4'000'000;

bool Bounded(const YAML::Node& node, int depth, size_t* budget) {
  if (depth > kMaxDepth || *budget == 0) return false;
  --*budget;
  for (auto it = node.begin(); (node.IsMap() || node.IsSequence()) && it != node.end(); ++it) {
    const bool ok = node.IsMap() ? Bounded(it->first, depth + 1, budget) &&
                                       Bounded(it->second, depth + 1, budget)
                                 : Bounded(*it, depth + 1, budget);
    if (!ok) return false;
  }
  return true;
}

// Offset of the quote that closes the quoted scalar opening at `open`, or npos.
size_t ClosingQuote(const std::string& text, size_t open) {
  const char q = text[open];
  for (size_t i = open + 1; i < text.size(); ++i) {
    const bool escaped_pair =
        q == '\'' && text[i] == '\'' && i + 1 < text.size() && text[i + 1] == '\'';
    if ((q == '"' && text[i] == '\\') || escaped_pair) {
      ++i;
    } else if (text[i] == q) {
      return i;
    }
  }
  return std::string::npos;
}

// yaml-cpp lets a quoted scalar that is never closed run to the end of the
// file, swallowing the rest of the scenario; say where the quote opened.
bool FindUnclosedQuote(const std::string& text, const YAML::Node& node, TextPosition* at) {
  if (node.IsScalar()) {
    const YAML::Mark m = node.Mark();
    if (m.is_null() || m.pos < 0 || static_cast<size_t>(m.pos) >= text.size()) return false;
    const char c = text[m.pos];
    if ((c != '"' && c != '\'') || ClosingQuote(text, m.pos) != std::string::npos) return false;
    *at = PositionOf(m);
    return true;
  }
  for (auto it = node.begin(); (node.IsMap() || node.IsSequence()) && it != node.end(); ++it) {
    const bool found = node.IsMap() ? FindUnclosedQuote(text, it->first, at) ||
                                          FindUnclosedQuote(text, it->second, at)
                                    : FindUnclosedQuote(text, *it, at);
    if (found) return true;
  }
  return false;
}

}  // namespace

TextPosition PositionOf(const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return {};
  return {mark.line + 1, mark.column + 1};
}

bool ParseScenarioText(const std::string& text, const std::string& file, YAML::Node* root,
                       std::vector<ScenarioError>* errors, TextKind kind) {
  const bool overlay = kind == TextKind::kOverlay;
  if (!CheckBytes(text, file, overlay ? "an overlay" : "a scenario", errors)) return false;
  YAML::Node doc;
  try {
    if (!CheckOneDocument(text, file, errors)) return false;
    doc = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    errors->push_back(At(file, PositionOf(e.mark),
                         "the YAML nests deeper than " + std::to_string(e.depth()) + " levels"));
    return false;
  } catch (const YAML::ParserException& e) {
    errors->push_back(SyntaxError(text, file, e));
    return false;
  }
  if (doc.IsNull()) {
    errors->push_back(At(file, {1, 1},
                         overlay
                             ? "the overlay is empty; an overlay holds spec: {...}"
                             : "the file is empty; a scenario starts with apiVersion: mpsim/v1"));
    return false;
  }
  if (!doc.IsMap()) {
    errors->push_back(At(file, PositionOf(doc.Mark()),
                         overlay ? "expected a mapping with spec at the top of the overlay"
                                 : "expected a mapping with apiVersion, kind, metadata and spec at "
                                   "the top of the file"));
    return false;
  }
  size_t budget = kMaxNodes;
  if (!Bounded(doc, 0, &budget)) {
    errors->push_back(At(file, PositionOf(doc.Mark()),
                         "the YAML nests deeper than 64 levels or expands to more than 4000000 "
                         "nodes (does an alias refer to itself?)"));
    return false;
  }
  TextPosition quote;
  if (FindUnclosedQuote(text, doc, &quote)) {
    errors->push_back(At(file, quote, "YAML syntax error: this quoted string is never closed"));
    return false;
  }
  *root = doc;
  return true;
}

}  // namespace mpsim::scenario
