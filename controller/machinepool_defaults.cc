#include "controller/machinepool_defaults.h"

#include <charconv>
#include <limits>
#include <string>

#include "controller/capi_names.h"

namespace mpsim {
namespace {

// strconv.ParseInt(s, 10, 32).
bool ParseInt32(std::string s, int32_t* out) {
  if (!s.empty() && s[0] == '+') s.erase(0, 1);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return false;
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return false;
  }
  *out = static_cast<int32_t>(v);
  return true;
}

Status ParseAnnotation(const std::string& key, const std::string& value, int32_t* out) {
  if (ParseInt32(value, out)) return Status::Ok();
  return Status::Invalid(
      "failed to caculate MachinePool replicas value: could not parse the "
      "value of the \"" +
      key + "\" annotation: strconv.ParseInt: parsing \"" + value + "\": invalid syntax");
}

}  // namespace

Status CalculateMachinePoolReplicas(const MachinePool* old_mp, const MachinePool& new_mp,
                                    int32_t* replicas) {
  if (new_mp.spec.replicas) {
    *replicas = *new_mp.spec.replicas;
    return Status::Ok();
  }
  const auto& ann = new_mp.meta.annotations;
  auto min_it = ann.find(capi::kAutoscalerMinSizeAnnotation);
  auto max_it = ann.find(capi::kAutoscalerMaxSizeAnnotation);
  if (min_it == ann.end() || max_it == ann.end()) {
    *replicas = 1;
    return Status::Ok();
  }
  int32_t min_size = 0, max_size = 0;
  Status st = ParseAnnotation(min_it->first, min_it->second, &min_size);
  if (!st.ok()) return st;
  st = ParseAnnotation(max_it->first, max_it->second, &max_size);
  if (!st.ok()) return st;
  if (old_mp == nullptr || !old_mp->spec.replicas || *old_mp->spec.replicas < min_size) {
    *replicas = min_size;
  } else if (*old_mp->spec.replicas > max_size) {
    *replicas = max_size;
  } else {
    *replicas = *old_mp->spec.replicas;
  }
  return Status::Ok();
}

Status DefaultMachinePool(const MachinePool* old_mp, MachinePool* mp) {
  mp->meta.labels[capi::kClusterNameLabel] = mp->spec.cluster_name;
  int32_t replicas = 0;
  Status st = CalculateMachinePoolReplicas(old_mp, *mp, &replicas);
  if (!st.ok()) return st;
  mp->spec.replicas = replicas;
  MachineSpec& spec = mp->spec.template_.spec;
  if (!spec.deletion.node_deletion_timeout_seconds) {
    spec.deletion.node_deletion_timeout_seconds = kDefaultNodeDeletionTimeoutSeconds;
  }
  if (spec.version && !spec.version->empty() && spec.version->front() != 'v') {
    spec.version = "v" + *spec.version;
  }
  return Status::Ok();
}

}  // namespace mpsim
