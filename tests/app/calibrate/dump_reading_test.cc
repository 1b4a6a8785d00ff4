// The dumps' readers: kinds recognised by content, fields read, and errors
// that name the file and the JSON path.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/calibrate/dump_kind.h"
#include "app/calibrate/instance_dump.h"
#include "app/calibrate/machinepool_dump.h"
#include "app/calibrate/node_dump.h"

namespace mpsim::calibrate {
namespace {

using nlohmann::json;

// A Node as `kubectl get nodes -o json --show-managed-fields` prints it (Kubernetes API
// reference, Node v1 core; ManagedFieldsEntry v1 meta), with only the fields read.
json CalNode(const std::string& name, const std::string& created) {
  return json::parse(R"({"apiVersion": "v1", "kind": "Node",
    "metadata": {"name": ")" +
                     name + R"(", "creationTimestamp": ")" + created + R"(",
      "managedFields": [
        {"manager": "kubelet", "operation": "Update", "time": ")" +
                     created + R"(",
         "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {}}}},
        {"manager": "aws-cloud-controller-manager", "operation": "Update",
         "time": "2026-03-01T10:00:07Z", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:spec": {"f:providerID": {}}}},
        {"manager": "kubelet", "operation": "Update", "time": "2026-03-01T10:00:20Z",
         "subresource": "status", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:status": {"f:conditions": {}}}}]},
    "spec": {"providerID": "aws:///us-east-1a/i-0abc", "someFutureField": 1},
    "status": {"conditions": [
      {"type": "MemoryPressure", "status": "False", "lastTransitionTime": "2026-03-01T10:00:01Z"},
      {"type": "Ready", "status": "True", "lastTransitionTime": "2026-03-01T10:00:20Z"}]}})");
}

json CalList(std::vector<json> items) { return {{"kind", "List"}, {"items", items}}; }

TEST(CalibrateDumpKind, RecognisesEachToolByContent) {
  EXPECT_EQ(RecogniseDump(CalList({CalNode("n", "2026-03-01T10:00:00Z")})), DumpKind::kNodes);
  EXPECT_EQ(RecogniseDump(CalList({{{"kind", "MachinePool"}}})), DumpKind::kMachinePools);
  EXPECT_EQ(RecogniseDump({{"Reservations", json::array()}}), DumpKind::kAwsInstances);
  EXPECT_EQ(RecogniseDump(json::array({{{"instanceId", "0"},
                                        {"id",
                                         "/subscriptions/s/resourceGroups/rg/providers/"
                                         "Microsoft.Compute/virtualMachineScaleSets/v/"
                                         "virtualMachines/0"}}})),
            DumpKind::kAzureVms);
  EXPECT_EQ(RecogniseDump(json::array({{{"creationTimestamp", "x"},
                                        {"selfLink",
                                         "https://www.googleapis.com/compute/v1/projects/p/zones/z/"
                                         "instances/n"}}})),
            DumpKind::kGcpInstances);
  EXPECT_EQ(RecogniseDump(CalList({})), DumpKind::kEmpty);
  EXPECT_EQ(RecogniseDump(json::array()), DumpKind::kEmpty);
  EXPECT_EQ(RecogniseDump(CalList({{{"kind", "Pod"}}})), DumpKind::kUnknown);
  EXPECT_EQ(RecogniseDump(json::array({1, 2})), DumpKind::kUnknown);
}

TEST(CalibrateNodeDump, ReadsTimesProviderIDAndItsOwner) {
  std::vector<NodeRow> rows;
  std::string error;
  ASSERT_TRUE(
      ReadNodes(CalList({CalNode("n0", "2026-03-01T10:00:00Z")}), "nodes.json", &rows, &error))
      << error;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].name, "n0");
  EXPECT_EQ(rows[0].provider_id, "aws:///us-east-1a/i-0abc");
  ASSERT_TRUE(rows[0].ready.has_value());
  EXPECT_EQ(*rows[0].ready - rows[0].created, 20 * 1000000);
  // The status subresource entry is the kubelet's; the spec's providerID is the CCM's.
  EXPECT_EQ(rows[0].provider_id_manager, "aws-cloud-controller-manager");
  ASSERT_TRUE(rows[0].provider_id_time.has_value());
  EXPECT_EQ(*rows[0].provider_id_time - rows[0].created, 7 * 1000000);
}

TEST(CalibrateNodeDump, NotReadyHasNoReadyTime) {
  json n = CalNode("n0", "2026-03-01T10:00:00Z");
  n["status"]["conditions"][1]["status"] = "False";
  std::vector<NodeRow> rows;
  std::string error;
  ASSERT_TRUE(ReadNodes(CalList({n}), "nodes.json", &rows, &error)) << error;
  EXPECT_FALSE(rows[0].ready.has_value());
}

TEST(CalibrateNodeDump, ErrorsNameTheFileAndTheJsonPath) {
  std::vector<NodeRow> rows;
  std::string error;
  json bad_time = CalList({CalNode("a", "2026-03-01T10:00:00Z"), CalNode("b", "yesterday")});
  EXPECT_FALSE(ReadNodes(bad_time, "nodes.json", &rows, &error));
  EXPECT_EQ(error,
            "nodes.json: $.items[1].metadata.creationTimestamp: not a RFC 3339 time: "
            "\"yesterday\"");
  json no_name = CalNode("a", "2026-03-01T10:00:00Z");
  no_name["metadata"].erase("name");
  EXPECT_FALSE(ReadNodes(CalList({no_name}), "nodes.json", &rows, &error));
  EXPECT_EQ(error, "nodes.json: $.items[0].metadata.name: missing");
  json wrong_type = CalNode("a", "2026-03-01T10:00:00Z");
  wrong_type["status"]["conditions"][1]["lastTransitionTime"] = 5;
  EXPECT_FALSE(ReadNodes(CalList({wrong_type}), "nodes.json", &rows, &error));
  EXPECT_EQ(error,
            "nodes.json: $.items[0].status.conditions[1].lastTransitionTime: expected a string");
}

TEST(CalibrateInstanceDump, AwsInstanceIsItsProviderID) {
  // EC2 API reference, DescribeInstances: Reservations[].Instances[].
  const json doc = json::parse(R"({"Reservations": [{"ReservationId": "r-1", "Instances": [
      {"InstanceId": "i-0abc", "LaunchTime": "2026-03-01T10:00:00+00:00",
       "Placement": {"AvailabilityZone": "us-east-1b"}, "State": {"Name": "running"}}]}]})");
  std::vector<InstanceRow> rows;
  std::string error;
  ASSERT_TRUE(ReadAwsInstances(doc, "i.json", &rows, &error)) << error;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].provider_id, "aws:///us-east-1b/i-0abc");
  EXPECT_EQ(rows[0].zones, std::vector<std::string>{"us-east-1b"});
  const json bad = json::parse(R"({"Reservations": [{"Instances": [{"InstanceId": "i-1"}]}]})");
  EXPECT_FALSE(ReadAwsInstances(bad, "i.json", &rows, &error));
  EXPECT_EQ(error, "i.json: $.Reservations[0].Instances[0].LaunchTime: missing");
}

TEST(CalibrateInstanceDump, AzureVmFlattenedOrNot) {
  // The CLI flattens `properties`; the REST API's VirtualMachineScaleSetVM nests timeCreated.
  const std::string id =
      "/subscriptions/s/resourceGroups/RG/providers/Microsoft.Compute/virtualMachineScaleSets/"
      "v/virtualMachines/3";
  const json doc = json::array(
      {{{"id", id}, {"instanceId", "3"}, {"timeCreated", "2026-03-01T10:00:00.5+00:00"}},
       {{"id", id},
        {"instanceId", "3"},
        {"properties", {{"timeCreated", "2026-03-01T10:00:01+00:00"}}}}});
  std::vector<InstanceRow> rows;
  std::string error;
  ASSERT_TRUE(ReadAzureVms(doc, "vms.json", &rows, &error)) << error;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].provider_id, "azure://" + id);
  EXPECT_EQ(rows[1].launched - rows[0].launched, 500000);
  const json bad = json::array({{{"id", id}, {"instanceId", "3"}}});
  EXPECT_FALSE(ReadAzureVms(bad, "vms.json", &rows, &error));
  EXPECT_EQ(error, "vms.json: $[0].timeCreated: missing");
}

TEST(CalibrateInstanceDump, GcpSelfLinkBecomesTheGceProviderID) {
  const json doc = json::array(
      {{{"creationTimestamp", "2026-03-01T02:00:00.000-08:00"},
        {"selfLink",
         "https://www.googleapis.com/compute/v1/projects/p1/zones/us-central1-a/instances/n1"}}});
  std::vector<InstanceRow> rows;
  std::string error;
  ASSERT_TRUE(ReadGcpInstances(doc, "g.json", &rows, &error)) << error;
  EXPECT_EQ(rows[0].provider_id, "gce://p1/us-central1-a/n1");
  EXPECT_EQ(rows[0].zones, std::vector<std::string>{"us-central1-a"});
  json bad = doc;
  bad[0]["selfLink"] = "https://example.com/n1";
  EXPECT_FALSE(ReadGcpInstances(bad, "g.json", &rows, &error));
  EXPECT_EQ(error.rfind("g.json: $[0].selfLink: expected https://", 0), 0u) << error;
}

TEST(CalibrateMachinePoolDump, ReadsReplicasVersionKindAndProviderIDs) {
  // Cluster API MachinePool (cluster.x-k8s.io/v1beta1).
  const json doc = json::parse(R"({"kind": "List", "items": [{"kind": "MachinePool",
      "metadata": {"name": "mp", "namespace": "ns"},
      "spec": {"replicas": 3, "providerIDList": ["aws:///a/i-1"],
               "template": {"spec": {"version": "v1.30.2",
                 "infrastructureRef": {"kind": "AWSMachinePool", "name": "mp"}}}}}]})");
  std::vector<MachinePoolRow> rows;
  std::string error;
  ASSERT_TRUE(ReadMachinePools(doc, "mp.json", &rows, &error)) << error;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at, "$.items[0]");
  EXPECT_EQ(rows[0].replicas, 3);
  EXPECT_EQ(rows[0].version, "v1.30.2");
  EXPECT_EQ(rows[0].infra_kind, "AWSMachinePool");
  EXPECT_EQ(rows[0].provider_ids, std::vector<std::string>{"aws:///a/i-1"});
  json bad = doc;
  bad["items"][0]["spec"]["template"]["spec"].erase("infrastructureRef");
  EXPECT_FALSE(ReadMachinePools(bad, "mp.json", &rows, &error));
  EXPECT_EQ(error, "mp.json: $.items[0].spec.template.spec.infrastructureRef: missing");
}

}  // namespace
}  // namespace mpsim::calibrate
