// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The radixes the tests run a radix-k algorithm at (selection, algorithm.hpp), with no MPI: the
// schedule checker, the proof and radix_test read the same list.

#include <algorithm>
#include <bit>
#include <vector>

#include "collectives/algorithm.hpp"

namespace testing {

/// 0 (the algorithm's default) for every algorithm; for a radix-k one on p ranks also 2, 3, 8 and
/// p up to 64 (p: one level, every rank the root's child or peer), each a radix the call accepts
/// (2 ≤ k ≤ max(p, 2), a power of two where the descriptor asks) other than the default.
inline std::vector<int> radixes_to_check(collectives::collective c, collectives::algorithm a, int p) {
  std::vector<int> out{0};
  const int default_k = collectives::default_radix(c, a);
  if (default_k == 0) return out;
  const bool pairs_by_xor = a == collectives::algorithm::recursive_multiplying;
  for (int k : {2, 3, 8, p <= 64 ? p : 0}) {
    const bool fits = k >= 2 && k <= std::max(p, 2) && k != default_k;
    if (fits && (!pairs_by_xor || std::has_single_bit(static_cast<unsigned>(k))) &&
        std::find(out.begin(), out.end(), k) == out.end())
      out.push_back(k);
  }
  return out;
}

}  // namespace testing
