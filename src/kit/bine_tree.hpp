// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The Bine tree shared by broadcast_bine and reduce_bine (De Sensi et al., "Bine Trees:
// Enhancing Collective Operations by Optimizing Communication Locality", SC 2025), for any rank,
// p ≥ 1 and any root. Over a power-of-two group of q = 2^L members numbered from the root's
// (member v), the broadcast's step t sends from every member that holds the vector to
// swing_peer(v, s), s = L − 1 − t (kit/swing.hpp): Swing's all-gather restricted to the root's
// data, partners at distances |ρ(s)| = …, 11, 5, 3, 1, 1 in turn. A binomial tree's last steps
// cross q/2, q/4, … ranks; here they cross about two thirds of that, in alternating directions,
// so more of the traffic stays between nearby ranks (one host, one switch).
//
// Who receives when, with no simulation: write v in negabinary (base −2) with L digits, mod q
// (the root is 0…0). A member whose lowest k digits are equal (all 0 or all 1) and whose
// (k+1)-th differs (k = L for the root and for 1…1) receives at Swing step s = k − 1 from
// swing_peer(v, s), then sends at steps s = k − 2, …, 0: the partner's digits are v's with the
// lowest s + 1 flipped (ρ(s) is 1…1 in negabinary), so a holder's partner never holds yet.
// The holders after each step are an aligned run of swing_map positions (the schedules test
// checks the tree at every p up to 1024 and several roots).
//
// Not a power of two (p = q + rem): ranks are rotated so that the root sits at position 1 of
// pof2_fold's pairs (2i, 2i+1), a member; each pair's even rank is its odd partner's child at
// one extra step, after the tree (broadcast), or before it (reduce). It costs one more step of
// α + nβ (+ nγ for reduce): ⌈log₂ p⌉ steps in all, as the binomial tree.
//
//   p = 4, root 0 (member = rank):   step 0: 0 → 3          (s = 1, ρ = −1)
//                                    step 1: 0 → 1, 3 → 2   (s = 0, ρ = 1)
//   p = 5, root 0: position u = rank + 1 mod 5; rank 4 (u = 0) pairs with the root (u = 1):
//                                    step 0: 0 → 3, step 1: 0 → 1, 3 → 2, step 2: 0 → 4

#include <bit>
#include <vector>

#include "kit/pof2_fold.hpp"
#include "kit/swing.hpp"

namespace collectives::detail {

struct bine_tree {
  /// A neighbour in the tree and the broadcast step at which the vector crosses to it.
  struct link {
    int rank;
    int step;
  };

  bine_tree(int rank, int p, int root);

  int parent = -1;       ///< −1 at the root
  int parent_step = -1;  ///< the step at which this rank receives from its parent
  /// In the order a broadcast sends to them (step ascending, largest subtree first); reduce
  /// receives from them in reverse.
  std::vector<link> children;
  int steps = 0;  ///< the tree's depth: ⌈log₂ p⌉
};

inline bine_tree::bine_tree(int rank, int p, int root) {
  const int pof2 = static_cast<int>(std::bit_floor(static_cast<unsigned>(p)));
  const int levels = std::countr_zero(static_cast<unsigned>(pof2));
  const bool folds = pof2 != p;
  steps = levels + (folds ? 1 : 0);
  // Position u: the rotation that puts the root at 1 when folding (group member 0), else at 0.
  const int shift = folds ? 1 : 0;
  const int u = ((rank - root + shift) % p + p) % p;
  const auto rank_at = [&](int position) { return (position + root - shift + p) % p; };
  const pof2_fold fold(u, p);
  if (fold.sits_out()) {
    parent = rank_at(fold.partner);
    parent_step = levels;
    return;
  }
  const int v = fold.group_rank;
  const auto member_rank = [&](int member) { return rank_at(fold.rank_of(member)); };
  // v's L negabinary digits: (v + m) ^ m with m the odd digits' mask, truncated mod q.
  const unsigned odd_digits = 0xAAAAAAAAu, digits = (static_cast<unsigned>(v) + odd_digits) ^ odd_digits;
  const unsigned low = pof2 - 1u;
  const unsigned unequal = (digits & 1u ? ~digits : digits) & low;
  const int equal = unequal == 0 ? levels : std::countr_zero(unequal);
  if (v != 0) {
    parent = member_rank(swing_peer(v, equal - 1, pof2));
    parent_step = levels - equal;
  }
  const int first_child_step = v != 0 ? equal - 2 : levels - 1;
  for (int s = first_child_step; s >= 0; --s)
    children.push_back({member_rank(swing_peer(v, s, pof2)), levels - 1 - s});
  if (fold.carries_partner()) children.push_back({rank_at(fold.partner), levels});
}

}  // namespace collectives::detail
