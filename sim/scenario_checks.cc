// The shared rules of sim/scenario_checks.h. The distribution mapping: which
// parameters each `dist` takes and the relations between them.
#include "sim/scenario_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "sim/duration.h"

namespace mpsim::scenario {
namespace {

std::string Join(const std::vector<std::string>& words, const char* last) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? last : ", ";
    out += words[i];
  }
  return out;
}

// The parameters `d` gives, by YAML name.
std::vector<std::string> Given(const proto::Distribution& d) {
  std::vector<std::string> given;
  const google::protobuf::Reflection* r = d.GetReflection();
  const google::protobuf::Descriptor* desc = d.GetDescriptor();
  for (int i = 0; i < desc->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = desc->field(i);
    if (f->name() == "dist") continue;
    if (f->is_repeated() ? r->FieldSize(d, f) > 0 : r->HasField(d, f)) {
      given.push_back(f->json_name());
    }
  }
  return given;
}

class DistChecker {
 public:
  DistChecker(const proto::Distribution& d, const std::string& path, std::vector<Issue>* issues)
      : d_(d), path_(path), issues_(issues) {}

  void Run() {
    const DistributionKind* kind = FindKind();
    if (kind == nullptr) return;
    bool applicable = true;
    for (const std::string& p : Given(d_)) {
      if (std::find(kind->params.begin(), kind->params.end(), p) != kind->params.end()) continue;
      Add(p, Quote(p) + " is not a parameter of a " + kind->name + " distribution, which takes " +
                 Join(kind->params, " and "));
      applicable = false;
    }
    if (!applicable) return;
    if (kind->name == "constant") Need(d_.has_value(), "value");
    if (kind->name == "uniform") Uniform();
    if (kind->name == "exponential") Exponential();
    if (kind->name == "lognormal") Lognormal();
    if (kind->name == "normal") Need(d_.has_mean(), "mean") && Need(d_.has_stddev(), "stddev");
    if (kind->name == "empirical") Empirical();
  }

 private:
  void Add(const std::string& key, std::string message) {
    issues_->push_back({key.empty() ? path_ : JoinKey(path_, key), std::move(message), ""});
  }

  bool Need(bool has, const char* param) {
    if (!has) Add("", "a " + d_.dist() + " distribution needs " + param);
    return has;
  }

  const DistributionKind* FindKind() {
    std::vector<std::string> names;
    for (const DistributionKind& k : DistributionKinds()) {
      if (k.name == d_.dist()) return &k;
      names.push_back(k.name);
    }
    if (d_.dist().empty()) {
      Add("", "missing dist: one of " + Join(names, " or "));
    } else {
      Add("dist", "unknown distribution " + Quote(d_.dist()) + "; expected one of " +
                      Join(names, " or ") + DidYouMean(d_.dist(), names));
    }
    return nullptr;
  }

  void Uniform() {
    if (!Need(d_.has_min(), "min") || !Need(d_.has_max(), "max")) return;
    if (d_.max() < d_.min()) {
      Add("max", "max (" + FormatDuration(d_.max()) + ") is less than min (" +
                     FormatDuration(d_.min()) + ")");
    }
  }

  void Exponential() {
    if (Need(d_.has_mean(), "mean") && d_.mean() == 0) {
      Add("mean",
          "an exponential mean must be more than 0s; for no delay use {dist: constant, "
          "value: 0s}");
    }
  }

  void Lognormal() {
    const bool by_median = d_.has_median() || d_.has_p99();
    const bool by_mu = d_.has_mu() || d_.has_sigma();
    if (by_median && by_mu) return Add("", "give either median and p99, or mu and sigma, not both");
    if (by_mu) return LognormalMuSigma();
    if (!Need(d_.has_median(), "median") || !Need(d_.has_p99(), "p99")) return;
    if (d_.median() == 0) return Add("median", "a lognormal median must be more than 0s");
    if (d_.p99() < d_.median()) {
      Add("p99", "p99 (" + FormatDuration(d_.p99()) + ") is less than the median (" +
                     FormatDuration(d_.median()) + ")");
    }
  }

  void LognormalMuSigma() {
    if (!Need(d_.has_mu(), "mu") || !Need(d_.has_sigma(), "sigma")) return;
    // e^mu seconds is the median: keep it between 1us and 30 days, as for durations.
    const double lo = std::log(1e-6);
    const double hi = std::log(30.0 * 24 * 3600);
    if (d_.mu() < lo || d_.mu() > hi) {
      Add("mu", "mu must lie in [-13.8, 14.7] (a median of e^mu seconds between 1us and 30 days)");
    }
    if (d_.sigma() < 0 || d_.sigma() > 10) Add("sigma", "sigma must lie in [0, 10]");
  }

  void Empirical() {
    if (d_.samples_size() == 0) Add("", "an empirical distribution needs at least one sample");
    if (d_.samples_size() > kMaxSamples) {
      Add("samples", "at most " + std::to_string(kMaxSamples) + " samples are allowed");
    }
  }

  const proto::Distribution& d_;
  const std::string& path_;
  std::vector<Issue>* issues_;
};

}  // namespace

const std::vector<DistributionKind>& DistributionKinds() {
  static const std::vector<DistributionKind> kinds = {
      {"constant", {"value"}},        {"uniform", {"min", "max"}},
      {"exponential", {"mean"}},      {"lognormal", {"median", "p99", "mu", "sigma"}},
      {"normal", {"mean", "stddev"}}, {"empirical", {"samples"}},
  };
  return kinds;
}

void ValidateDistribution(const proto::Distribution& d, const std::string& path,
                          std::vector<Issue>* issues) {
  DistChecker(d, path, issues).Run();
}

std::string OrList(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    out += words[i];
  }
  return out;
}

void CheckOneOf(const std::string& value, const std::vector<std::string>& allowed,
                const std::string& path, const std::string& what, std::vector<Issue>* issues) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  issues->push_back({path, "unknown " + what + " " + Quote(value) + "; expected " +
                               OrList(allowed) + DidYouMean(value, allowed)});
}

void AddIssue(std::vector<Issue>* issues, const std::string& path, std::string message) {
  issues->push_back({path, std::move(message), ""});
}

std::string FormatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void CheckProbability(double p, const std::string& path, std::vector<Issue>* issues) {
  if (p < 0 || p > 1) {
    AddIssue(issues, path, "expected a probability between 0 and 1, got " + FormatNumber(p));
  }
}

void CheckVersion(const std::string& version, const std::string& path, std::vector<Issue>* issues) {
  // Cluster API wants a v-prefixed semantic version.
  static const std::regex pattern(
      R"(v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)([-+][0-9A-Za-z.+-]+)?)");
  if (std::regex_match(version, pattern)) return;
  issues->push_back({path, "expected a Kubernetes version such as v1.30.0, got " + Quote(version)});
}

}  // namespace mpsim::scenario
