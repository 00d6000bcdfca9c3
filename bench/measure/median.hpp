// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The median the benchmark programs summarise repeated timings and ratios by.

#include <algorithm>
#include <cmath>
#include <vector>

namespace collbench {

/// The median of `v` (the mean of the middle two for an even count); NaN when `v` is empty.
inline double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace collbench
