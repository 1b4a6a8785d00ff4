#include "models/oci/fleet.h"

#include <algorithm>
#include <utility>

#include "models/oci/ocid.h"

namespace mpsim::oci {

Fleet::Fleet(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
             FleetOptions opts, uint64_t seed, StateWords words, std::function<void()> on_change)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(std::move(opts)),
      words_(words),
      on_change_(std::move(on_change)),
      launch_rng_(StreamFor(seed, "oci/" + pool_ + "/launch")),
      delete_rng_(StreamFor(seed, "oci/" + pool_ + "/delete")),
      id_rng_(StreamFor(seed, "oci/" + pool_ + "/ids")) {}

// Instances in a pool are named inst-<5 random alphanumerics>-<pool name>
// (docs/reference/oci-scaleway.md §6.1); a name is drawn again on a clash.
std::string Fleet::NewName() {
  for (;;) {
    std::string name = "inst-" + RandomAlnum(5, &id_rng_) + "-" + pool_;
    if (names_.insert(name).second) return name;
  }
}

uint64_t Fleet::Launch(const std::string& version) {
  const uint64_t seq = next_++;
  Member& m = members_[seq];
  m.name = NewName();
  m.ocid = NewOcid("instance", opts_.region, &id_rng_);
  m.provider_id = SharedString::Pinned(opts_.provider_id_prefix + m.ocid);
  m.version = version;
  Count(m, +1);
  rec_->Change(loop_->Now(), words_.kind, m.name, "state", "", words_.launching, pool_);
  Place(seq);
  return seq;
}

std::string Fleet::PickDomain() const {
  std::string best;
  int32_t fewest = 0;
  for (const std::string& d : opts_.zones) {
    auto used = per_domain_.find(d);
    const int32_t n = used == per_domain_.end() ? 0 : used->second;
    auto cap = opts_.capacity.find(d);
    if (cap != opts_.capacity.end() && n >= cap->second) continue;
    if (best.empty() || n < fewest) best = d, fewest = n;
  }
  return best;
}

// Without room anywhere the instance stays in its launching state, and so
// does the pool's scaling, until room frees (docs/reference/oci-scaleway.md §6.2).
void Fleet::Place(uint64_t seq) {
  Member& m = members_.at(seq);
  m.domain = PickDomain();
  if (m.domain.empty()) {
    waiting_.push_back(seq);
    if (!m.waited) rec_->Fault(loop_->Now(), pool_, m.name, "OutOfHostCapacity");
    m.waited = true;
    return;
  }
  ++per_domain_[m.domain];
  loop_->After(Sample(opts_.launch_delay, launch_rng_), [this, seq] { Boot(seq); });
}

void Fleet::Boot(uint64_t seq) {
  auto it = members_.find(seq);
  if (it == members_.end() || it->second.phase != Phase::kLaunching) return;
  SetPhase(&it->second, Phase::kUp);
  workload_->InstanceBooted(pool_, it->second.name, it->second.provider_id, it->second.version);
  on_change_();
}

void Fleet::Terminate(uint64_t seq) {
  auto it = members_.find(seq);
  if (it == members_.end() || it->second.phase == Phase::kGoing) return;
  Member& m = it->second;
  SetPhase(&m, Phase::kGoing);
  if (m.domain.empty()) std::erase(waiting_, seq);
  loop_->After(Sample(opts_.delete_delay, delete_rng_), [this, seq] {
    auto gone = members_.find(seq);
    if (gone == members_.end()) return;
    const std::string name = gone->second.name;
    if (!gone->second.domain.empty()) --per_domain_[gone->second.domain];
    members_.erase(gone);
    rec_->Change(loop_->Now(), words_.kind, name, "state", words_.going, words_.gone, pool_);
    workload_->InstanceGone(name);
    std::vector<uint64_t> retry;
    retry.swap(waiting_);
    for (uint64_t w : retry) Place(w);
    on_change_();
  });
  on_change_();
}

const ProviderIDList& Fleet::UpIds() {
  if (up_ids_stale_) {
    std::vector<SharedString> ids;
    ids.reserve(static_cast<size_t>(up_));
    for (const auto& [seq, m] : members_) {
      if (m.phase == Phase::kUp) ids.push_back(m.provider_id);
    }
    up_ids_ = ProviderIDList(std::move(ids));
    up_ids_stale_ = false;
  }
  return up_ids_;
}

// Members still waiting for capacity go first (assumed: they hold no
// instance yet); then each removal takes the oldest member of the domain
// holding the most live ones, the oldest of the tied domains' first.
// Fault domains are not modelled.
std::vector<uint64_t> Fleet::ScaleInOrder(int32_t n) const {
  std::vector<uint64_t> out;
  for (uint64_t w : waiting_) {
    if (static_cast<int32_t>(out.size()) < n) out.push_back(w);
  }
  std::map<std::string, std::vector<uint64_t>> by_domain;  // oldest first
  for (const auto& [seq, m] : members_) {
    if (m.phase != Phase::kGoing && !m.domain.empty()) by_domain[m.domain].push_back(seq);
  }
  std::map<std::string, size_t> taken;
  while (static_cast<int32_t>(out.size()) < n) {
    const std::string* most = nullptr;
    size_t most_left = 0;
    for (const auto& [d, seqs] : by_domain) {
      const size_t left = seqs.size() - taken[d];
      if (left == 0) continue;
      const bool older =
          most != nullptr && left == most_left && seqs[taken[d]] < by_domain[*most][taken[*most]];
      if (left > most_left || older) most = &d, most_left = left;
    }
    if (most == nullptr) break;
    out.push_back(by_domain[*most][taken[*most]++]);
  }
  return out;
}

void Fleet::SetPhase(Member* m, Phase p) {
  up_ids_stale_ = true;
  const auto word = [this](Phase ph) {
    return ph == Phase::kLaunching ? words_.launching : ph == Phase::kUp ? words_.up : words_.going;
  };
  rec_->Change(loop_->Now(), words_.kind, m->name, "state", word(m->phase), word(p), pool_);
  Count(*m, -1);
  m->phase = p;
  Count(*m, +1);
}

// Going members count nowhere.
void Fleet::Count(const Member& m, int32_t delta) {
  if (m.phase == Phase::kGoing) return;
  live_ += delta;
  if (m.phase == Phase::kUp) up_ += delta;
}

}  // namespace mpsim::oci
