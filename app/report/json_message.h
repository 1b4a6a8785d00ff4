// Reading an output file of ours (summary.json, pod_waits.json) back into its
// message, for the reports made from a run's directory.
#pragma once

#include <google/protobuf/message.h>

#include <string>

namespace mpsim {

// Parses `file` as the protobuf JSON of `out`. Unknown fields are skipped, so
// a file from a newer mpsim still reads. False with the reason in *error:
// "cannot read FILE", or "FILE is not a WHAT: ..." (`what` names the file's
// kind, e.g. "summary.json").
bool ReadJsonMessage(const std::string& file, const std::string& what,
                     google::protobuf::Message* out, std::string* error);

}  // namespace mpsim
