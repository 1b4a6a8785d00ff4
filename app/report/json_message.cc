#include "app/report/json_message.h"

#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <sstream>

namespace mpsim {

bool ReadJsonMessage(const std::string& file, const std::string& what,
                     google::protobuf::Message* out, std::string* error) {
  std::ifstream in(file);
  if (!in) {
    *error = "cannot read " + file;
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  google::protobuf::util::JsonParseOptions opts;
  opts.ignore_unknown_fields = true;
  const auto status = google::protobuf::util::JsonStringToMessage(text.str(), out, opts);
  if (status.ok()) return true;
  *error = file + " is not a " + what + ": " + std::string(status.message());
  return false;
}

}  // namespace mpsim
