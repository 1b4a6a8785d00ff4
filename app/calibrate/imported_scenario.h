// The scenario `mpsim import` writes from a cluster's dumps: one pool per
// MachinePool with its replicas, version and provider block, and the fitted
// delays (overlay_writer.h) as its spec.workloadCluster.
//   block   the provider whose registration lists the pool's
//           spec.template.spec.infrastructureRef.kind (models/registry.h
//           infra_kinds), with that kind's keys (e.g. `gke: true`)
//   zones   the zones its spec.providerIDList names (aws, gce, scaleway
//           forms), else those the instance listings give for its
//           instances, in order of first appearance; none: the block's default
//   name    the MachinePool's name; "<namespace>-<name>" for a name that
//           two namespaces share
#pragma once

#include <string>

#include "app/calibrate/calibration.h"
#include "app/calibrate/dump_rows.h"

namespace mpsim::calibrate {

struct ImportNames {
  std::string scenario;     // metadata.name
  std::string description;  // metadata.description
};

// The scenario's YAML text. False with *error (naming the MachinePool's file
// and JSON path) when a pool's infrastructure kind is one mpsim has no model of.
bool ImportedScenario(const Dumps& dumps, const Calibration& c, const ImportNames& names,
                      std::string* yaml, std::string* error);

}  // namespace mpsim::calibrate
