// Text made safe to place in HTML or SVG, as element content or as a quoted
// attribute value.
#pragma once

#include <string>
#include <string_view>

namespace mpsim {

// `text` with & < > " ' replaced by their character references.
std::string HtmlEscape(std::string_view text);

}  // namespace mpsim
