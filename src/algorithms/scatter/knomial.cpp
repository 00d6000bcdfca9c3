// SPDX-License-Identifier: BSD-3-Clause
// scatter_knomial — the root hands each of up to k − 1 children per level of the binomial tree
// of radix k (default 4) its whole subtree's blocks in one message; every inner rank keeps its
// own block and forwards its children's sub-ranges: ⌈log_k p⌉ levels.
//
// Steps:   the tree of kit/binomial_tree.hpp at radix k, in which every subtree is an interval
//          of ranks, run as scatter_binomial runs radix 2: a subtree's blocks are one contiguous
//          range of the root's buffer for any root. 16 ranks, root 0 (bR = rank R's block):
//            level 0: 0 → 12, 8, 4             b12…b15, b8…b11, b4…b7
//            level 1: r → r + 3, r + 2, r + 1  b(r+3), b(r+2), b(r+1)   for r = 0, 4, 8, 12
// Cost:    (k−1)⌈log_k p⌉α + (p−1)/p·nβ; below E ⌈log_k p⌉α + (p−1)/p·nβ, n the whole array
//          at the root: below E a level's sends leave at once.
// Transport: blocking sends, one child after the other. Above E a send returns only once its
//          child has the blocks, so a level takes k − 1 turns.
// Order:   no reduction.
// Limits:  2 ≤ k ≤ p (the call's radix); any root, any p, with no rotation of the root's buffer.
// Memory:  as scatter_binomial: root and leaves none; an inner rank holds its subtree's blocks
//          until forwarded: (end − first)·n, at most (p−1)·n.
// Ref:     MPICH scatter tree (k-nomial); UCC tl/ucp scatter knomial.

#include "algorithms/scatter/scatter.hpp"

namespace collectives::detail {

void scatter_knomial(const call& c) { scatter_tree(c, c.radix); }

}  // namespace collectives::detail
