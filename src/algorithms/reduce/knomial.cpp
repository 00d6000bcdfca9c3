// SPDX-License-Identifier: BSD-3-Clause
// reduce_knomial — partial results flow up the binomial tree of radix k (default 4), each rank
// folding in up to k − 1 children's results per level; the root ends with x0 ∘ x1 ∘ … ∘ x(p−1)
// after ⌈log_k p⌉ levels.
//
// Steps:   the tree of kit/binomial_tree.hpp at radix k, run bottom-up as reduce_binomial runs
//          radix 2: a rank folds in its children's results in reverse of the order a broadcast
//          sends to them, each child's interval of ranks next to what it has folded so far, then
//          sends its result to its parent. 16 ranks, root 0:
//            level 1: r + 1, r + 2, r + 3 → r     for r = 0, 4, 8, 12   (r: x(r..r+3))
//            level 0: 4, 8, 12 → 0                                       (0: x0..15)
// Cost:    (k−1)⌈log_k p⌉(α + nβ + nγ); below E ⌈log_k p⌉(α + (k−1)n(β + γ)). Above E each
//          child's send waits for its receive and a level takes k − 1 turns; below E the
//          children's sends of a level leave at once and their latencies overlap, half
//          binomial's ⌈log₂ p⌉ latencies at k = 4.
// Transport: blocking sends; a rank receives its children one after the other, in the order its
//          result grows. Above E each child's send waits for that receive, so a level takes
//          k − 1 turns; the row is for small vectors.
// Order:   exact rank order for every root, as reduce_binomial: correct for non-commutative ops.
// Limits:  2 ≤ k ≤ p (the call's radix); any root, any p.
// Memory:  as reduce_binomial: one n-byte block on ranks with children, a second on inner
//          non-root ranks.
// Ref:     Open MPI coll/base reduce_intra_knomial (radix 4 by default); MPICH reduce tree
//          (k-nomial); UCC tl/ucp reduce knomial.

#include "algorithms/reduce/reduce.hpp"
#include "kit/binomial_tree.hpp"

namespace collectives::detail {

void reduce_knomial(const call& c) { reduce_tree(c, c.radix); }

}  // namespace collectives::detail
