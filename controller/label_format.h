// Label values derived from object names (util/labels/format): a name that is
// not a valid label value is replaced by a short stable hash.
#pragma once

#include <string>

namespace mpsim {

// True if `s` is a valid Kubernetes label value (<= 63 chars, alphanumeric at
// both ends, '-', '_' and '.' inside; the empty string is valid).
bool IsValidLabelValue(const std::string& s);

// `s` itself if valid, else "hash_<base64url(fnv32a(s))>_z".
std::string MustFormatValue(const std::string& s);

}  // namespace mpsim
