// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatterv_recursive_halving — reduce_scatter_recursive_halving for blocks of any size:
// exchange the half of the vector the partner keeps with a partner at distance p/2, then half of
// what is left at distance p/4, …, until each rank holds only its own block.
//
// Steps:   reduce_scatter_recursive_halving_blocks over the blocks of recv_counts: with
//          d = p/2, p/4, …, 1 rank r pairs with r XOR d; of the aligned run of 2d blocks it still
//          reduces it keeps the d on its side, sends the other d and adds the partner's sums of its
//          own d (a run's size is the sum of its counts).
//            d = 2: 0↔2  1↔3    ranks 0,1 keep b0–b1 and send b2–b3; ranks 2,3 the reverse
//            d = 1: 0↔1  2↔3    each keeps its own block: rank r holds b_r of all 4 ranks
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs hands its whole vector to its odd partner first and gets its block back at the
//          end; the partner, standing for both ranks, reduces both their blocks.
// Cost:    log p·α + (p−1)/p·N(β + γ) equal (+ fold) (N = the whole vector); a run holding a
//          dominant block costs its size at each of the log p steps it still travels. The fold
//          costs 3α + N(β + γ) + b·β (b = the folded rank's block).
// Order:   the halves are combined by distance, not rank order: commutative ops only.
// Limits:  none: any counts (empty runs travel as empty messages).
// Memory:  an N-element accumulator in which the reduced run shrinks, plus the landing of each
//          incoming run (at most half the vector).
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005); MPICH reduce_scatter_intra_recursive_halving.

#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "algorithms/reduce_scatterv/reduce_scatterv.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_scatterv_recursive_halving(const call& c) {
  const block_partition blocks = c.recv_blocks->partition();
  if (blocks.count() == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, c.bytes(c.count));
    return;
  }
  const pof2_fold fold(c.rank(), c.size());
  scratch acc = fold.sits_out() ? nullptr : make_scratch(c.bytes(blocks.count()));
  reduce_scatter_recursive_halving_blocks(c.net, fold, halving_order::far_first, c.send, acc.get(), blocks,
                                          c.elem.size, *c.op);
  // Unfold: a rank that carried its partner reduced both their blocks and hands back the partner's.
  if (fold.sits_out()) {
    c.net.recv(fold.partner, c.recv, c.bytes(c.count));
    return;
  }
  const auto block = [&](int r) { return acc.get() + c.bytes(blocks.offset(r)); };
  if (fold.carries_partner())
    c.net.send(fold.partner, block(fold.partner), c.bytes(blocks.length(fold.partner)));
  copy_bytes(c.recv, block(c.rank()), c.bytes(c.count));
}

}  // namespace collectives::detail
