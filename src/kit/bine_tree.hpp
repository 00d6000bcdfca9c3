// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The Bine tree shared by broadcast_bine and reduce_bine (De Sensi et al., "Bine Trees:
// Enhancing Collective Operations by Optimizing Communication Locality", SC 2025), for any rank,
// p ≥ 1 and any root. Over a power-of-two group of q = 2^L members numbered from the root's
// (member v), the broadcast's step t sends from every member that holds the vector to
// swing_peer(v, s), s = L − 1 − t (kit/swing.hpp): Swing's all-gather restricted to the root's
// data, partners at distances |ρ(s)| = …, 11, 5, 3, 1, 1 in turn, so more of the traffic stays
// between nearby ranks than in a binomial tree. Who receives when follows from v in negabinary;
// not a power of two, the ranks are rotated so that the root is a member of pof2_fold's group,
// and each folded-out rank is its partner's child at one extra step: ⌈log₂ p⌉ steps in all.
// The derivation and examples: docs/algorithms.md, "How the Bine trees are built"; the
// schedules test checks the tree at every p up to 1024 and several roots.

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
