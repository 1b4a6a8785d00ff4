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

// A worker join as CABPK's cloud-config writes it (joinWorker), cut to what
// varies: the join configuration carries the discovery token.
std::string JoinCloudConfig(const std::string& token) {
  return "## template: jinja\n#cloud-config\nwrite_files:\n"
         "- path: /run/kubeadm/kubeadm-join-config.yaml\n  content: |\n"
         "    apiVersion: kubeadm.k8s.io/v1beta4\n    kind: JoinConfiguration\n"
         "    discovery:\n      bootstrapToken:\n        token: " +
         token + "\nruncmd:\n  - kubeadm join --config /run/kubeadm/kubeadm-join-config.yaml\n";
}

}  // namespace

Secret BootstrapDataSecret(const BootstrapConfig& cfg) {
  Secret s;
  s.meta = {.name = cfg.meta.name, .ns = cfg.meta.ns};
  s.meta.owner_references = {{.api_version = "bootstrap.cluster.x-k8s.io/v1beta2",
                              .kind = BootstrapConfig::kKind,
                              .name = cfg.meta.name,
                              .uid = cfg.meta.uid,
                              .controller = true}};
  s.type = "cluster.x-k8s.io/secret";
  s.data = {{"format", "cloud-config"}, {"value", JoinCloudConfig(cfg.spec.join_token)}};
  return s;
}

std::string NextJoinToken(const std::string& token) { return Token(Rotations(token) + 1); }

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
  StoreBootstrapData(cfg);
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
// token is written to the config and recreateBootstrapToken's joinWorker
// rewrites the data secret under the same name, only its value changed
// (docs/reference/providers.md §0.1). Before that the token is only
// extended, which changes no bootstrap data, so nothing is written here.
void BootstrapProvider::Rotate(const ObjectKey& key) {
  BootstrapConfig cfg;
  if (!server_->Store<BootstrapConfig>().Get(key, &cfg).ok()) return;
  if (cfg.meta.deletion_timestamp) return;
  ScheduleRotation(key);
  if (!OwnerHasNodeRefs(cfg)) return;
  const int64_t n = Rotations(cfg.spec.join_token);
  cfg.spec.join_token = NextJoinToken(cfg.spec.join_token);
  StoreBootstrapData(cfg);
  server_->Store<BootstrapConfig>().Patch(&cfg);
  const OwnerReference* owner = ControllerOwner(cfg.meta, "MachinePool");
  rec_->Change(loop_->Now(), "BootstrapConfig", key.name, "tokenRotations", std::to_string(n),
               std::to_string(n + 1), owner->name);
}

// Create, and on AlreadyExists an Update, as storeBootstrapData does; the
// Update writes the whole secret, so no resourceVersion is needed.
void BootstrapProvider::StoreBootstrapData(const BootstrapConfig& cfg) {
  Secret secret = BootstrapDataSecret(cfg);
  ObjectStore<Secret>& secrets = server_->Store<Secret>();
  if (secrets.Create(&secret).code() != Status::Code::kAlreadyExists) return;
  secret = BootstrapDataSecret(cfg);
  secrets.Patch(&secret);
}

bool BootstrapProvider::OwnerHasNodeRefs(const BootstrapConfig& cfg) const {
  const OwnerReference* owner = ControllerOwner(cfg.meta, "MachinePool");
  if (owner == nullptr) return false;
  auto mp = server_->Store<MachinePool>().Find({cfg.meta.ns, owner->name});
  return mp != nullptr && !mp->status.node_refs.empty();
}

}  // namespace mpsim
