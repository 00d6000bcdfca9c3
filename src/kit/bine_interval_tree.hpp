// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The Bine tree of gather_bine and scatter_bine (De Sensi et al., "Bine Trees", SC 2025), for
// any p and root, in which every subtree covers one circular interval of ranks. Over a
// power-of-two group with the root at w = 0, member w's partner at step s is the member whose
// negabinary number differs from w's in the low s + 1 digits (|w − partner| = |ρ(s)|); at step s
// the members whose low s + 2 digits are all equal stay and receive, the others hand their
// subtree over and leave, and a staying member's interval grows by exactly the partner's
// subtree. Any p: ranks numbered u = rank − root − 1 (mod p), folded with pof2_fold, so the root
// is always in the group and the fold costs no round beyond ⌈log₂ p⌉. O(log p) time and space.
// The derivation and an example: docs/algorithms.md, "How the Bine trees are built"; the
// schedules test proves the intervals at every p up to 1024.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "kit/pof2_fold.hpp"

namespace collectives::detail {

struct bine_interval_tree {
  /// A child of this rank and the circular interval of ranks its subtree covers: `length` ranks
  /// from `first` on, wrapping from p − 1 to 0.
  struct child {
    int rank;
    int first;
    int length;
  };

  bine_interval_tree(int rank, int p, int root);

  /// The position of rank `r` in this rank's interval (r must lie in it).
  int offset_of(int r) const { return (r - first + ranks) % ranks; }
  /// How many of the `length` ranks from `from` on come before the wrap from p − 1 to 0.
  int before_wrap(int from, int length) const { return std::min(length, ranks - from); }

  int ranks;        ///< p
  int parent = -1;  ///< −1 at the root
  int first;        ///< this rank's subtree covers `length` ranks from `first` on (circularly)
  int length = 1;
  /// In the order a gather hears them (step by step); a scatter serves them in reverse.
  std::vector<child> children;
};

namespace bine_detail {

inline std::uint32_t to_negabinary(std::uint32_t w) { return (0xAAAAAAAAu + w) ^ 0xAAAAAAAAu; }
inline std::uint32_t from_negabinary(std::uint32_t x) { return (x ^ 0xAAAAAAAAu) - 0xAAAAAAAAu; }

}  // namespace bine_detail

inline bine_interval_tree::bine_interval_tree(int rank, int p, int root) : ranks(p), first(rank) {
  if (p == 1) return;
  const int u = ((rank - root - 1) % p + p) % p;
  const auto rank_of_u = [&](int v) { return (v + root + 1) % p; };
  const pof2_fold fold(u, p);
  if (fold.sits_out()) {
    parent = rank_of_u(fold.partner);
    return;
  }
  const int pof2 = fold.pof2, steps = std::countr_zero(static_cast<unsigned>(pof2));
  const auto low = static_cast<std::uint32_t>(pof2 - 1);
  // Member w (g = w − 1) ↔ its fold pair's ranks; a circular interval of members ↔ of ranks.
  const auto member_rank = [&](int w) { return rank_of_u(fold.rank_of((w + pof2 - 1) % pof2)); };
  const auto first_u = [&](int g) {
    return g < pof2 ? fold.first_rank_of(g) : p + fold.first_rank_of(g - pof2);
  };
  const auto ranks_of = [&](int w_first, int w_length, int& out_first, int& out_length) {
    const int g = (w_first + pof2 - 1) % pof2;
    out_first = rank_of_u(first_u(g));
    out_length = first_u(g + w_length) - first_u(g);
  };
  if (fold.carries_partner()) {
    const int partner = rank_of_u(fold.partner);
    children.push_back({partner, partner, 1});
  }
  const int w = (fold.group_rank + 1) % pof2;
  const std::uint32_t digits = bine_detail::to_negabinary(static_cast<std::uint32_t>(w));
  int w_first = w, w_length = 1;
  bool grows_up = w % 2 == 0;
  for (int s = 0; s < steps; ++s) {
    const int size = 1 << s;
    const std::uint32_t flip = (2u << s) - 1;
    const int partner = static_cast<int>(bine_detail::from_negabinary(digits ^ flip) & low);
    const std::uint32_t stay = (4u << s) - 1, kept = digits & stay;
    const bool leaves = s == steps - 1 ? w != 0 : kept != 0 && kept != stay;
    if (leaves) {
      parent = member_rank(partner);
      break;
    }
    const int grown = grows_up ? (w_first + w_length) % pof2 : (w_first - size + pof2) % pof2;
    child c{member_rank(partner), 0, 0};
    ranks_of(grown, size, c.first, c.length);
    children.push_back(c);
    if (!grows_up) w_first = grown;
    w_length += size;
    grows_up = !grows_up;
  }
  ranks_of(w_first, w_length, first, length);
}

}  // namespace collectives::detail
