#include "models/aks/aks_options.h"

#include <cctype>

#include "sim/distribution_proto.h"

namespace mpsim::aks {

std::string DefaultAgentPoolName(const std::string& pool) {
  std::string out;
  for (char c : pool) {
    if (std::isalnum(static_cast<unsigned char>(c)) && out.size() < 12) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

int32_t ScaledUp(const std::string& value, int32_t of) {
  if (value.empty()) return 0;
  if (value.back() != '%') return std::stoi(value);
  const int64_t pct = std::stoll(value.substr(0, value.size() - 1));
  return static_cast<int32_t>((pct * of + 99) / 100);
}

AksOptions ToAksOptions(const proto::MachinePoolSpec& pool) {
  const proto::AksProvider& p = pool.aks();
  AksOptions o;
  o.kind = p.kind();
  o.agent_pool_name =
      p.agent_pool_name().empty() ? DefaultAgentPoolName(pool.name()) : p.agent_pool_name();
  o.node_resource_group = p.node_resource_group();
  o.zones.assign(p.zones().begin(), p.zones().end());
  o.capacity.insert(p.capacity().begin(), p.capacity().end());
  o.launch_delay = ToDistSpec(p.launch_delay());
  o.delete_delay = ToDistSpec(p.delete_delay());
  o.operation_delay = ToDistSpec(p.operation_delay());
  o.aso_reconcile_delay = ToDistSpec(p.aso_reconcile_delay());
  o.aso_sync_period = p.aso_sync_period();
  o.aso_blocked_retry = p.aso_blocked_retry();
  o.max_surge = p.max_surge();
  o.max_unavailable = p.max_unavailable();
  o.drain_timeout = p.drain_timeout();
  o.node_soak_duration = p.node_soak_duration();
  o.drain_time = p.drain_time();
  o.allocation_failure_delay = ToDistSpec(p.allocation_failure_delay());
  o.allocation_failed_probability = p.allocation_failed_probability();
  o.arm_read_burst = p.arm_read_burst();
  o.arm_reads_per_second = p.arm_reads_per_second();
  o.arm_write_burst = p.arm_write_burst();
  o.arm_writes_per_second = p.arm_writes_per_second();
  o.autoscaling = p.has_autoscaler();
  if (o.autoscaling) {
    const auto& a = p.autoscaler();
    o.min_count = a.has_min_count() ? a.min_count() : 0;
    o.max_count = a.has_max_count() ? a.max_count() : 1000;
    for (const auto& s : p.autoscaler().steps()) o.autoscaler_steps.push_back({s.at(), s.count()});
  }
  return o;
}

}  // namespace mpsim::aks
