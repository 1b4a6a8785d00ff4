#include "scenario/proto_docs.h"

#include <google/protobuf/descriptor.pb.h>

#include <cstddef>
#include <memory>

namespace mpsim {
// The descriptor set with source info (build/gen/scenario_docs.cc).
extern const unsigned char kScenarioDocs[];
extern const size_t kScenarioDocs_size;
}  // namespace mpsim

namespace mpsim::scenario {
namespace {

using google::protobuf::DescriptorPool;
using google::protobuf::SourceLocation;

// A pool of the same files as the generated one, with their comments.
const DescriptorPool& DocsPool() {
  static const std::unique_ptr<DescriptorPool> pool = [] {
    auto p = std::make_unique<DescriptorPool>();
    google::protobuf::FileDescriptorSet set;
    if (set.ParseFromArray(kScenarioDocs, static_cast<int>(kScenarioDocs_size))) {
      // --include_imports lists each file after those it imports.
      for (const google::protobuf::FileDescriptorProto& file : set.file()) p->BuildFile(file);
    }
    return p;
  }();
  return *pool;
}

std::string OneLine(const std::string& comment) {
  std::string out;
  size_t start = 0;
  while (start < comment.size()) {
    size_t end = comment.find('\n', start);
    if (end == std::string::npos) end = comment.size();
    const std::string line = comment.substr(start, end - start);
    const size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos) {
      if (!out.empty()) out += ' ';
      out += line.substr(first, line.find_last_not_of(' ') - first + 1);
    }
    start = end + 1;
  }
  return out;
}

template <class D>
std::string Doc(const D* found) {
  SourceLocation loc;
  if (found == nullptr || !found->GetSourceLocation(&loc)) return "";
  return OneLine(loc.leading_comments.empty() ? loc.trailing_comments : loc.leading_comments);
}

}  // namespace

std::string DocOf(const google::protobuf::FieldDescriptor* field) {
  return Doc(DocsPool().FindFieldByName(field->full_name()));
}

std::string DocOf(const google::protobuf::Descriptor* message) {
  return Doc(DocsPool().FindMessageTypeByName(message->full_name()));
}

std::string DocOf(const google::protobuf::OneofDescriptor* oneof) {
  return Doc(DocsPool().FindOneofByName(oneof->full_name()));
}

}  // namespace mpsim::scenario
