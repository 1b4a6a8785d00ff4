#include "sim/bootstrap_provider.h"

#include <string>

#include "api/meta.h"

namespace mpsim {
namespace {

std::string Token(int64_t n) { return "token-" + std::to_string(n); }

// The rotation count carried by a token written by Token().
int64_t Rotations(const std::string& token) {
  return token.size() > 6 ? std::stoll(token.substr(6)) : 0;
}

}  // namespace

BootstrapProvider::BootstrapProvider(EventLoop* loop, ApiServer* server, Recorder* rec,
                                     BootstrapOptions opts)
    : loop_(loop),
      server_(server),
      rec_(rec),
      opts_(std::move(opts)),
      rng_(StreamFor(opts_.seed, "bootstrap")) {
  using Type = WatchEvent<BootstrapConfig>::Type;
  server_->Store<BootstrapConfig>().Watch(
      [this](Type t, const auto&, const std::shared_ptr<const BootstrapConfig>& obj) {
        if (t != Type::kAdded) return;
        ObjectKey key = obj->meta.Key();
        loop_->After(Sample(opts_.delay, rng_), [this, key] { MakeReady(key); });
      });
}

// KubeadmConfig (v1beta2 contract): status.initialization.dataSecretCreated
// and status.dataSecretName, plus a Ready condition.
void BootstrapProvider::MakeReady(const ObjectKey& key) {
  BootstrapConfig cfg;
  if (!server_->Store<BootstrapConfig>().Get(key, &cfg).ok()) return;
  if (cfg.meta.deletion_timestamp) return;
  if (cfg.contract_version == "v1beta1") {
    cfg.status.ready = true;
  } else {
    cfg.status.data_secret_created = true;
  }
  cfg.spec.join_token = Token(0);
  cfg.status.data_secret_name = key.name;
  SetCondition(&cfg.status.conditions, {.type = "Ready", .status = "True"}, loop_->Now());
  server_->Store<BootstrapConfig>().Patch(&cfg);
  ScheduleRotation(key);
}

void BootstrapProvider::ScheduleRotation(const ObjectKey& key) {
  if (opts_.token_rotation <= 0) return;
  loop_->After(opts_.token_rotation, [this, key] { Rotate(key); });
}

// CABPK rotateMachinePoolBootstrapToken: once the pool has nodes, a new join
// token is written to the config and the data secret is regenerated under
// the same name (docs/reference/providers.md §0.1). Before that the token is only extended,
// which changes no bootstrap data, so nothing is written here.
void BootstrapProvider::Rotate(const ObjectKey& key) {
  BootstrapConfig cfg;
  if (!server_->Store<BootstrapConfig>().Get(key, &cfg).ok()) return;
  if (cfg.meta.deletion_timestamp) return;
  ScheduleRotation(key);
  if (!OwnerHasNodeRefs(cfg)) return;
  const int64_t n = Rotations(cfg.spec.join_token);
  cfg.spec.join_token = Token(n + 1);
  server_->Store<BootstrapConfig>().Patch(&cfg);
  const OwnerReference* owner = ControllerOwner(cfg.meta, "MachinePool");
  rec_->Change(loop_->Now(), "BootstrapConfig", key.name, "tokenRotations", std::to_string(n),
               std::to_string(n + 1), owner->name);
}

bool BootstrapProvider::OwnerHasNodeRefs(const BootstrapConfig& cfg) const {
  const OwnerReference* owner = ControllerOwner(cfg.meta, "MachinePool");
  if (owner == nullptr) return false;
  auto mp = server_->Store<MachinePool>().Find({cfg.meta.ns, owner->name});
  return mp != nullptr && !mp->status.node_refs.empty();
}

}  // namespace mpsim
