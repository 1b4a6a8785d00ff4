// The comments of the scenario's .proto files, each key's doc line: the
// generated descriptors carry none, so they are read from the descriptor set
// that the build compiles in with its source info (CMakeLists.txt).
#pragma once

#include <google/protobuf/descriptor.h>

#include <string>

namespace mpsim::scenario {

// The comment above the declaration (else the one after it on its line),
// its lines joined by spaces; "" when there is none.
std::string DocOf(const google::protobuf::FieldDescriptor* field);
std::string DocOf(const google::protobuf::Descriptor* message);
std::string DocOf(const google::protobuf::OneofDescriptor* oneof);

}  // namespace mpsim::scenario
