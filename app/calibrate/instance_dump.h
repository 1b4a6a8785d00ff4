// Reads the clouds' instance listings: each instance's launch time and the
// providerID its Node carries (docs/reference/cluster-dumps.md §3).
//   aws ec2 describe-instances (EC2 API reference, DescribeInstances / Instance):
//     $.Reservations[].Instances[] with InstanceId, LaunchTime, Placement.AvailabilityZone
//   az vmss list-instances (Azure REST, Virtual Machine Scale Set VMs - List; the CLI
//     flattens `properties`): $[] with id, timeCreated (or properties.timeCreated), zones
//   gcloud compute instances list --format=json (Compute Engine API, instances):
//     $[] with selfLink, creationTimestamp
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/calibrate/dump_rows.h"

namespace mpsim::calibrate {

// Each appends one row per instance of `doc` read from `file`. False with
// *error naming the file and JSON path of the first missing or malformed field.
bool ReadAwsInstances(const nlohmann::json& doc, const std::string& file,
                      std::vector<InstanceRow>* out, std::string* error);
bool ReadAzureVms(const nlohmann::json& doc, const std::string& file, std::vector<InstanceRow>* out,
                  std::string* error);
bool ReadGcpInstances(const nlohmann::json& doc, const std::string& file,
                      std::vector<InstanceRow>* out, std::string* error);

}  // namespace mpsim::calibrate
