// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Which side of an exchange step sends first (kit/transport.cpp): a pure function of the ranks.

#include <algorithm>
#include <bit>
#include <numeric>
#include <tuple>
#include <utility>

namespace collectives::detail {

/// Modular inverse of a modulo m, for a and m coprime (extended Euclid).
inline int inverse_mod(int a, int m) {
  int old_r = a, r = m, old_s = 1, s = 0;
  while (r != 0) {
    const int q = old_r / r;
    std::tie(old_r, r) = std::pair{r, old_r - q * r};
    std::tie(old_s, s) = std::pair{s, old_s - q * s};
  }
  return ((old_s % m) + m) % m;
}

/// True when `rank` (of `size`) sends before it receives in an exchange step that sends to `to`
/// and receives from `from`, a pairing (to == from) or a shift (to = rank + k, from = rank − k).
/// A pairing: the lower rank sends first when its number has an even count of one bits, otherwise
/// the upper one (Thue–Morse parity), so pairs crossing one link in a step alternate directions. A
/// shift by k has cycles rank, rank+k, … of length p/gcd(k,p); along each, ranks at even positions
/// send first.
inline bool sends_first(int rank, int to, int from, int size) {
  if (to == from) {
    const int lower = std::min(rank, to);
    return (rank == lower) == (std::popcount(static_cast<unsigned>(lower)) % 2 == 0);
  }
  const int shift = (to - rank + size) % size;
  const int g = std::gcd(shift, size);
  const int cycle_length = size / g;
  // rank = c + position·shift (mod p) with c = rank mod g, the cycle's smallest member.
  const int position = static_cast<int>(
      (static_cast<long long>((rank - rank % g) / g) * inverse_mod(shift / g, cycle_length)) % cycle_length);
  return position % 2 == 0;
}

}  // namespace collectives::detail
