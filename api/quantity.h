// Kubernetes resource quantities ("4", "3500m", "16Gi", "1.5G", "2e3"), as
// pod requests and node allocatable write them (k8s.io/apimachinery
// pkg/api/resource/quantity.go: a decimal number, then one suffix of
// binarySI Ki..Ei, decimalSI n, u, m, k, M..E, or an exponent e/E<n>).
#pragma once

#include <cstdint>
#include <string_view>

namespace mpsim {

// Parses `text` into thousandths of its unit (MilliValue: "3500m" -> 3500,
// "16Gi" -> 17179869184000), rounding up as Kubernetes does. False for text
// that is no quantity, a negative one, or one past int64 in thousandths.
bool ParseQuantityMilli(std::string_view text, int64_t* milli);

}  // namespace mpsim
