// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The binary tree of the pipelined tree algorithms (broadcast and reduce pipelined_tree), for
// any root. Ranks are counted from the root (relative rank (rank − root) mod p), and a node at
// relative rank lo that holds the interval [lo, hi) hands its first ⌈(hi − lo − 1)/2⌉ followers to
// its first child lo + 1 and the rest to its second child: a pre-order tree, every subtree an
// interval of relative ranks (neighbouring ranks, often one node or one switch, share a
// subtree). Depth ⌊log₂ p⌋; every rank has at most two children, so a segment leaves a rank at
// most twice, against up to log p times from a binomial tree's root.
//
//   p = 7, root 0:   0 → 1 (holds 1–3) and 4 (holds 4–6);  1 → 2, 3;  4 → 5, 6

#include <array>

namespace collectives::detail {

struct binary_tree {
  binary_tree(int rank, int p, int root);

  int parent = -1;  ///< −1 at the root
  /// The children, first child first (the larger subtree); −1 where there is none.
  std::array<int, 2> children{-1, -1};
};

inline binary_tree::binary_tree(int rank, int p, int root) {
  const int me = (rank - root + p) % p;
  const auto absolute = [&](int relative) { return (relative + root) % p; };
  int lo = 0, hi = p;  // the subtree of relative rank lo, which contains me
  while (lo != me) {
    const int second = lo + 1 + (hi - lo) / 2;  // 1 + ⌈(hi − lo − 1)/2⌉ past lo
    parent = absolute(lo);
    if (me < second) {
      lo = lo + 1;
      hi = second;
    } else {
      lo = second;
    }
  }
  const int second = lo + 1 + (hi - lo) / 2;
  if (lo + 1 < hi) children[0] = absolute(lo + 1);
  if (second < hi) children[1] = absolute(second);
}

}  // namespace collectives::detail
