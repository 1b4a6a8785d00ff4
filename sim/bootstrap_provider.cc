#include "sim/bootstrap_provider.h"

namespace mpsim {

BootstrapProvider::BootstrapProvider(EventLoop* loop, ApiServer* server, DistSpec delay,
                                     uint64_t seed)
    : loop_(loop), server_(server), delay_(std::move(delay)), rng_(StreamFor(seed, "bootstrap")) {
  using Type = WatchEvent<BootstrapConfig>::Type;
  server_->Store<BootstrapConfig>().Watch(
      [this](Type t, const auto&, const std::shared_ptr<const BootstrapConfig>& obj) {
        if (t != Type::kAdded) return;
        ObjectKey key = obj->meta.Key();
        loop_->After(Sample(delay_, rng_), [this, key] { MakeReady(key); });
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
  cfg.status.data_secret_name = key.name;
  SetCondition(&cfg.status.conditions, {.type = "Ready", .status = "True"}, loop_->Now());
  server_->Store<BootstrapConfig>().Patch(&cfg);
}

}  // namespace mpsim
