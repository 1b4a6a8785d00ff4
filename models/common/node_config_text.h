// Node labels and taints as text, in the kubelet's syntax (--node-labels
// "k=v,k2=v2"; --register-with-taints "k=v:NoSchedule,k2:NoExecute"), which
// gcloud's --node-labels and --node-taints also take. Scenario files use it
// for a pool's Kubernetes labels and taints, so validation and the models
// read the same thing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/meta.h"
#include "api/objects.h"

namespace mpsim {

// Parses "k=v,k2=v2" ("" is no labels) into `out`. Keys and values follow
// Kubernetes' label syntax. On a bad item returns false and says why in
// `error`; `out` is then unspecified.
bool ParseLabelsText(std::string_view text, Labels* out, std::string* error);

// Parses "key[=value]:Effect,..." ("" is no taints) into `out`, in the order
// given. Effect is NoSchedule, PreferNoSchedule or NoExecute. On a bad item
// returns false and says why in `error`.
bool ParseTaintsText(std::string_view text, std::vector<Taint>* out, std::string* error);

// Splits "a,b,c" into its items, empty ones included; "" has none.
std::vector<std::string_view> CommaItems(std::string_view text);

// The inverse forms: labels in key order, taints in their order.
std::string LabelsText(const Labels& labels);
std::string TaintsText(const std::vector<Taint>& taints);

}  // namespace mpsim
