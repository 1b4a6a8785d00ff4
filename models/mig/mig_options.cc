#include "models/mig/mig_options.h"

#include "models/common/node_config_text.h"
#include "sim/distribution_proto.h"

namespace mpsim::mig {

MigOptions ToMigOptions(const proto::MigProvider& p) {
  MigOptions o;
  o.zones.assign(p.zones().begin(), p.zones().end());
  o.capacity.insert(p.capacity().begin(), p.capacity().end());
  o.launch_delay = ToDistSpec(p.launch_delay());
  o.delete_delay = ToDistSpec(p.delete_delay());
  o.reaction_delay = ToDistSpec(p.reaction_delay());
  o.stockout_retry = ToDistSpec(p.stockout_retry());
  o.stockout_probability = p.stockout_probability();
  o.malformed_url_probability = p.malformed_url_probability();
  o.preemptible = p.preemptible();
  o.preemption_probability = p.preemption_probability();
  o.staging_fraction = p.staging_fraction();
  if (p.has_autohealing_initial_delay()) {
    o.autohealing_initial_delay = ToDistSpec(p.autohealing_initial_delay());
  }
  o.update.proactive = p.update_policy() == "PROACTIVE";
  o.update.max_surge = p.update_max_surge();
  o.update.max_unavailable = p.update_max_unavailable();
  if (p.update_minimal_action() == "REFRESH") o.update.minimal_action = MinimalAction::kRefresh;
  if (p.update_minimal_action() == "RESTART") o.update.minimal_action = MinimalAction::kRestart;
  if (p.update_replacement_method() == "RECREATE") {
    o.update.replacement = ReplacementMethod::kRecreate;
  }
  o.api_requests_per_minute = p.api_requests_per_minute();
  o.project = p.project();
  o.gke = p.gke();
  o.node_pool_operation_delay = ToDistSpec(p.node_pool_operation_delay());
  o.upgrade.max_surge = p.upgrade_settings().max_surge();
  o.upgrade.max_unavailable = p.upgrade_settings().max_unavailable();
  o.autoscaling.enabled = p.gke_autoscaling().enabled();
  o.autoscaling.min_node_count = p.gke_autoscaling().min_node_count();
  o.autoscaling.max_node_count = p.gke_autoscaling().max_node_count();
  o.image_type = p.image_type();
  o.initial_node_count_follows_size = p.initial_node_count_follows_size();
  // Validation (models/mig/gke_validate.cc) has refused text that does not parse.
  std::string error;
  ParseLabelsText(p.kubernetes_labels(), &o.kubernetes_labels, &error);
  ParseTaintsText(p.kubernetes_taints(), &o.kubernetes_taints, &error);
  ParseResourceLabelsText(p.resource_labels(), &o.resource_labels, &error);
  ParseNetworkTagsText(p.network_tags(), &o.network_tags, &error);
  ParseSysctlsText(p.linux_sysctls(), &o.linux_sysctls, &error);
  o.linux_cgroup_mode = p.linux_cgroup_mode();
  if (p.has_node_locations()) ParseNodeLocationsText(p.node_locations(), &o.node_locations, &error);
  return o;
}

}  // namespace mpsim::mig
