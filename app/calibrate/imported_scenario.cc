#include "app/calibrate/imported_scenario.h"

#include <yaml-cpp/yaml.h>

#include <map>

#include "app/calibrate/overlay_writer.h"
#include "app/calibrate/provider_id.h"
#include "models/registry.h"
#include "sim/scenario_checks.h"

namespace mpsim::calibrate {
namespace {

void AddZone(std::vector<std::string>* zones, const std::string& z) {
  if (z.empty()) return;
  for (const std::string& have : *zones) {
    if (have == z) return;
  }
  zones->push_back(z);
}

std::vector<std::string> PoolZones(const MachinePoolRow& pool, const Dumps& dumps) {
  std::vector<std::string> zones;
  for (const std::string& id : pool.provider_ids) AddZone(&zones, ZoneOf(id));
  if (!zones.empty()) return zones;
  std::map<std::string, const InstanceRow*> by_key;
  for (const InstanceRow& i : dumps.instances) by_key.emplace(JoinKey(i.provider_id), &i);
  for (const std::string& id : pool.provider_ids) {
    auto it = by_key.find(JoinKey(id));
    if (it == by_key.end()) continue;
    for (const std::string& z : it->second->zones) AddZone(&zones, z);
  }
  return zones;
}

bool PoolBlock(const MachinePoolRow& pool, const Dumps& dumps, YAML::Node* provider,
               std::string* error) {
  const InfraKind* kind = nullptr;
  const ProviderRegistration* reg = FindByInfraKind(pool.infra_kind, &kind);
  if (reg == nullptr) {
    *error = pool.file + ": " + pool.at + ".spec.template.spec.infrastructureRef.kind: \"" +
             pool.infra_kind + "\" is no kind mpsim models; expected " +
             scenario::OrList(KnownInfraKinds());
    return false;
  }
  YAML::Node block = YAML::Load(kind->block_keys);
  const std::vector<std::string> zones = PoolZones(pool, dumps);
  if (!zones.empty()) {
    block["zones"] = zones;
    block["zones"].SetStyle(YAML::EmitterStyle::Flow);
  }
  (*provider)[reg->block] = block;
  return true;
}

// Pool names that two namespaces share get their namespace in front.
std::string PoolName(const MachinePoolRow& pool, const std::vector<MachinePoolRow>& all) {
  int same = 0;
  for (const MachinePoolRow& p : all) same += p.name == pool.name;
  return same > 1 && !pool.ns.empty() ? pool.ns + "-" + pool.name : pool.name;
}

bool PoolNode(const MachinePoolRow& pool, const Dumps& dumps, YAML::Node* out, std::string* error) {
  YAML::Node n(YAML::NodeType::Map);
  n["name"] = PoolName(pool, dumps.pools);
  if (pool.replicas) n["replicas"] = *pool.replicas;
  if (!pool.version.empty()) n["version"] = pool.version;
  YAML::Node provider(YAML::NodeType::Map);
  if (!PoolBlock(pool, dumps, &provider, error)) return false;
  n["provider"] = provider;
  *out = n;
  return true;
}

}  // namespace

bool ImportedScenario(const Dumps& dumps, const Calibration& c, const ImportNames& names,
                      std::string* yaml, std::string* error) {
  YAML::Node spec(YAML::NodeType::Map);
  YAML::Node wc = FittedWorkloadCluster(c);
  if (wc.size() > 0) spec["workloadCluster"] = wc;
  for (const MachinePoolRow& pool : dumps.pools) {
    YAML::Node n;
    if (!PoolNode(pool, dumps, &n, error)) return false;
    spec["machinePools"].push_back(n);
  }
  YAML::Node doc(YAML::NodeType::Map);
  doc["apiVersion"] = "mpsim/v1";
  doc["kind"] = "Scenario";
  doc["metadata"]["name"] = names.scenario;
  doc["metadata"]["description"] = names.description;
  doc["spec"] = spec;
  YAML::Emitter out;
  out << doc;
  *yaml = std::string(out.c_str()) + "\n";
  return true;
}

}  // namespace mpsim::calibrate
