#include "models/common/infra_pool_report.h"

#include <utility>

namespace mpsim {

Status PatchInfraPoolReport(ObjectClient<InfraMachinePool>* client, const InfraMachinePool& imp,
                            InfraPoolReport report) {
  const int32_t n = static_cast<int32_t>(report.provider_ids.size());
  if (imp.spec.provider_id_list == report.provider_ids && imp.status.replicas == n &&
      imp.status.ready == report.ready &&
      imp.status.initialization_provisioned == report.provisioned &&
      imp.status.infrastructure_machine_kind == report.machine_kind) {
    return Status::Ok();
  }
  InfraMachinePool next = imp;
  next.spec.provider_id_list = std::move(report.provider_ids);
  next.status.replicas = n;
  next.status.ready = report.ready;
  next.status.initialization_provisioned = report.provisioned;
  next.status.infrastructure_machine_kind = std::move(report.machine_kind);
  return client->Patch(imp, &next);
}

}  // namespace mpsim
