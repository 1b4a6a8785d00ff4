#include "app/calibrate/read_dumps.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/calibrate/dump_kind.h"
#include "app/calibrate/instance_dump.h"
#include "app/calibrate/machinepool_dump.h"
#include "app/calibrate/node_dump.h"

namespace mpsim::calibrate {

using nlohmann::json;

namespace {

bool ParseDumpFile(const std::string& file, json* doc, std::string* error) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    *error = file + ": is a directory; give the JSON files themselves";
    return false;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    *error = file + ": cannot read the file";
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    *doc = json::parse(text.str());
  } catch (const json::parse_error& e) {
    *error = file + ": not JSON: " + e.what();
    return false;
  }
  return true;
}

bool ReadDump(const json& doc, const std::string& file, Dumps* out, std::string* error) {
  switch (RecogniseDump(doc)) {
    case DumpKind::kNodes:
      return ReadNodes(doc, file, &out->nodes, error);
    case DumpKind::kMachinePools:
      return ReadMachinePools(doc, file, &out->pools, error);
    case DumpKind::kAwsInstances:
      return ReadAwsInstances(doc, file, &out->instances, error);
    case DumpKind::kAzureVms:
      return ReadAzureVms(doc, file, &out->instances, error);
    case DumpKind::kGcpInstances:
      return ReadGcpInstances(doc, file, &out->instances, error);
    case DumpKind::kEmpty:
      return true;
    case DumpKind::kUnknown:
      break;
  }
  *error = file +
           ": $: not a dump mpsim reads; expected the JSON of `kubectl get nodes -o json`, "
           "`kubectl get machinepools.cluster.x-k8s.io -A -o json`, `aws ec2 describe-instances`, "
           "`az vmss list-instances` or `gcloud compute instances list --format=json`";
  return false;
}

}  // namespace

bool ReadDumps(const std::vector<std::string>& files, Dumps* out, std::string* error) {
  for (const std::string& file : files) {
    json doc;
    if (!ParseDumpFile(file, &doc, error) || !ReadDump(doc, file, out, error)) return false;
  }
  return true;
}

}  // namespace mpsim::calibrate
