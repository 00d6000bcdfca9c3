// SPDX-License-Identifier: BSD-3-Clause
// broadcast_knomial — the binomial tree of radix k (default 4): every rank that has the vector
// hands it to up to k − 1 new ranks per level, multiplying the ranks that hold it by k: ⌈log_k p⌉
// levels.
//
// Steps:   the tree of kit/binomial_tree.hpp at radix k: a rank receives the whole vector from
//          its parent, then sends it to its children, level by level. 16 ranks, root 0:
//            level 0: 0 → 12, 8, 4
//            level 1: r → r + 3, r + 2, r + 1   for r = 0, 4, 8, 12
// Cost:    (k−1)⌈log_k p⌉(α + nβ); below E ⌈log_k p⌉(α + (k−1)nβ). Above E every send waits
//          for its receiver and a level takes k − 1 turns; below E a level's k − 1 sends leave
//          at once and their latencies overlap, which is where the radix pays: half
//          binomial's ⌈log₂ p⌉ latencies at k = 4.
// Transport: blocking sends, one child after the other. Above E a send returns only once its
//          child has the vector, so the k − 1 sends of a level take k − 1 turns (binomial's
//          ⌈log₂ p⌉ steps do less); the row is for small vectors.
// Order:   no reduction.
// Limits:  2 ≤ k ≤ p (the call's radix); any root, any p (a level's last piece may be shorter).
// Memory:  none extra: every rank receives straight into its buffer.
// Ref:     Open MPI coll/base bcast_intra_knomial (radix 4 by default); MPICH bcast tree
//          (k-nomial); UCC tl/ucp bcast knomial.

#include "algorithms/broadcast/broadcast.hpp"
#include "kit/binomial_tree.hpp"

namespace collectives::detail {

void broadcast_knomial(const call& c) { broadcast_tree(c, c.radix); }

}  // namespace collectives::detail
