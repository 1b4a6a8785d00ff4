// The one list of providers: every scenario block mpsim knows, with what the
// scenario loader needs of it (defaults, validation) and what the world needs
// (the model and its controllers). Adding a provider adds one entry here
// (docs/architecture.md, "Adding a provider").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/common/infra_provider.h"
#include "models/common/instance_stage.h"
#include "scenario/scenario.pb.h"
#include "sim/scenario_schema.h"

namespace mpsim {

// How reports name one of a provider's controllers (`mpsim run --explain`).
struct ControllerWords {
  std::string controller;  // its name in the provider's manager, e.g. "awsmachinepool"
  std::string title;       // its kind as written, e.g. "AWSMachinePool"
  // Upstream reports of pools that waited for this controller's periodic
  // resync because no event or requeue woke it, e.g. "CAPA#4618"; empty
  // when none is known.
  std::string resync_stall;
};

// A Cluster API infrastructure kind that a provider block stands for: what
// `mpsim import` reads in a MachinePool's spec.template.spec.infrastructureRef.kind.
struct InfraKind {
  std::string kind;  // e.g. "GCPManagedMachinePool"
  // The block's keys that select this kind, as YAML flow text, e.g.
  // "{gke: true}"; "{}" when the block means the kind by itself.
  std::string block_keys = "{}";
};

struct ProviderRegistration {
  // The block's key under a pool's `provider:`, a member of the
  // MachinePoolSpec.provider oneof; also summary.json's `provider`.
  std::string block;
  // The block's rows of the defaults table (docs/defaults.md).
  std::vector<scenario::DefaultEntry> (*defaults)() = nullptr;
  // Appends one issue per broken rule of `pool`'s block, found at `path`.
  void (*validate)(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues) = nullptr;
  // Checks a `setInfraPoolSpec` edit of `pool`; null when the provider's
  // InfraMachinePools take no edits.
  void (*validate_edit)(const proto::MachinePoolSpec& pool,
                        const proto::Event::SetInfraPoolSpec& edit, const std::string& path,
                        std::vector<scenario::Issue>* issues) = nullptr;
  // With validate_edit: which of the block's pools take edits, as the
  // refusal of an edit of another pool names them (e.g. a setting they need;
  // empty: every pool of the block), and the keys they take.
  std::string edit_pools;
  std::vector<std::string> edit_keys;
  // Appends one warning per setting of `pool`'s block, found at `path`, that
  // upstream accepts but with which the pool can never converge (`mpsim
  // validate` prints them, exit 0); null when the provider has none.
  void (*warn)(const proto::MachinePoolSpec& pool, const std::string& path,
               std::vector<scenario::Issue>* warnings) = nullptr;
  // A new provider (model and controllers) for the run.
  std::unique_ptr<InfraProvider> (*make)(const ProviderContext& ctx) = nullptr;
  // The provider's controllers that reports name by their kind.
  std::vector<ControllerWords> controllers;
  // The values its model writes in Instance "state" timeline rows, each with
  // what it means to the reports (critical paths, the trace's tracks).
  std::vector<InstanceStateName> instance_states;
  // The infrastructure kinds this block models; empty for a provider that
  // stands for none (`test`).
  std::vector<InfraKind> infra_kinds;
};

// Every provider, in the order reports list them.
const std::vector<ProviderRegistration>& Providers();

// The entry of `pool`'s block, or nullptr if the pool names none.
const ProviderRegistration* FindProvider(const proto::MachinePoolSpec& pool);

// The provider whose block models the infrastructure kind `kind`, with the
// kind's entry in *which; nullptr when no provider does.
const ProviderRegistration* FindByInfraKind(const std::string& kind, const InfraKind** which);

// Every infrastructure kind some provider models, in registration order.
std::vector<std::string> KnownInfraKinds();

// The provider's short name for a pool ("test", "asg", ...); "none" without a block.
std::string ProviderName(const proto::MachinePoolSpec& pool);

// The words of the provider controller named `controller`, or nullptr.
const ControllerWords* FindControllerWords(const std::string& controller);

// The providers this build has a model for, e.g. "test, asg".
std::string AvailableProviders();

// A new provider for pools like `pool`, or nullptr if this build has no model for it.
std::unique_ptr<InfraProvider> MakeProvider(const proto::MachinePoolSpec& pool,
                                            const ProviderContext& ctx);

// The pools that take `setInfraPoolSpec` edits, with their keys, from every
// registration with validate_edit: "<block or edit_pools> (<key>, ...)", joined by "; ".
std::string EditablePools();

// Why a `setInfraPoolSpec` edit of `pool_name`, whose provider takes no edits,
// is refused, naming the pools that do take them.
std::string EditRefusal(const std::string& pool_name);

}  // namespace mpsim
