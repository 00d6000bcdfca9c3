// SPDX-License-Identifier: BSD-3-Clause
// gather_knomial — every rank of the binomial tree of radix k (default 4) collects its subtree's
// blocks from up to k − 1 children per level and passes them to its parent in one message:
// ⌈log_k p⌉ levels. The mirror of scatter_knomial.
//
// Steps:   the tree of kit/binomial_tree.hpp at radix k, in which every subtree is an interval
//          of ranks, run as gather_binomial runs radix 2: a subtree's blocks land as one
//          contiguous range of the root's buffer for any root. 16 ranks, root 0 (bR = rank R's
//          block):
//            level 1: r + 1, r + 2, r + 3 → r  b(r+1) … b(r+3)   for r = 0, 4, 8, 12
//            level 0: 4, 8, 12 → 0             b4…b7, b8…b11, b12…b15
// Cost:    (k−1)⌈log_k p⌉α + (p−1)/p·nβ; below E ⌈log_k p⌉α + (p−1)/p·nβ, n the whole array
//          at the root: below E the children's sends of a level leave at once.
// Transport: blocking sends; a rank receives its children one after the other. Above E each
//          child's send waits for that receive, so a level takes k − 1 turns.
// Order:   no reduction.
// Limits:  2 ≤ k ≤ p (the call's radix); any root, any p, with no rotation at the root.
// Memory:  as gather_binomial: root and leaves none; an inner rank holds its subtree's blocks
//          until passed on: (end − first)·n, at most (p−1)·n.
// Ref:     MPICH gather tree (k-nomial); UCC tl/ucp gather knomial.

#include "algorithms/gather/gather.hpp"

namespace collectives::detail {

void gather_knomial(const call& c) { gather_tree(c, c.radix); }

}  // namespace collectives::detail
