// Which tool wrote a JSON dump, recognised from its content alone (file
// names say nothing): a Kubernetes List of Nodes or of MachinePools, or one
// cloud's instance listing.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace mpsim::calibrate {

enum class DumpKind {
  kNodes,         // kubectl get nodes -o json
  kMachinePools,  // kubectl get machinepools.cluster.x-k8s.io -A -o json
  kAwsInstances,  // aws ec2 describe-instances: {"Reservations": [{"Instances": [...]}]}
  kAzureVms,      // az vmss list-instances: [{"id": ".../virtualMachines/N", ...}]
  kGcpInstances,  // gcloud compute instances list --format=json: [{"selfLink": ...}]
  kEmpty,         // a List or array with no items: nothing to read
  kUnknown,
};

// The kind of `doc`; kUnknown when it is none of the above.
DumpKind RecogniseDump(const nlohmann::json& doc);

// "kubectl get nodes", "aws ec2 describe-instances", ... for messages.
const char* DumpKindName(DumpKind kind);

}  // namespace mpsim::calibrate
