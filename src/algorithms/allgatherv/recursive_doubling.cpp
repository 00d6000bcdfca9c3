// SPDX-License-Identifier: BSD-3-Clause
// allgatherv_recursive_doubling — allgather_recursive_doubling for blocks of any size: exchange
// everything gathered so far with a partner at distance 1, then 2, 4, …
//
// Steps:   with d = 1, 2, …, p/2 rank r pairs with r XOR d and swaps the aligned run of d ranks'
//          blocks it holds for the partner's adjacent run (allgather_recursive_doubling_blocks
//          over the blocks packed in rank order: a run is one contiguous range, its size the sum
//          of its counts).
//            d = 1: 0↔1  2↔3    ranks 0,1 hold b0–b1; ranks 2,3 hold b2–b3
//            d = 2: 0↔2  1↔3    every rank holds b0–b3
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs gives its block to its odd partner first, which then stands for both blocks,
//          and receives the whole result from it last.
// Cost:    log p·α + (p−1)/p·Nβ equal (+ 2α + bβ + Nβ fold) (N = all blocks, b = the folded rank's
//          block); each step waits for its largest run, so skewed counts cost up to log p·b_max·β
//          more.
// Order:   no reduction.
// Limits:  none: any counts (empty runs travel as empty messages), any displacements.
// Memory:  none extra when recv's blocks are packed in rank order; otherwise a packed copy of N
//          elements (on_packed_result).
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005); MPICH allgatherv_intra_recursive_doubling.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allgatherv/allgatherv.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgatherv_recursive_doubling(const call& c) {
  if (c.recv_blocks->total() == 0) return;
  on_packed_result(c, [&](std::byte* buf, const block_partition& blocks) {
    const auto block = [&](int r) { return buf + c.bytes(blocks.offset(r)); };
    if (c.size() == 1) {
      copy_bytes(block(0), c.send, c.bytes(c.count));
      return;
    }
    const pof2_fold fold(c.rank(), c.size());
    if (fold.sits_out()) {
      c.net.send(fold.partner, c.send, c.bytes(c.count));
      c.net.recv(fold.partner, buf, c.bytes(blocks.count()));
      return;
    }
    // Fold in: a member's part is its own block, preceded by its partner's if it carries one.
    copy_bytes(block(c.rank()), c.send, c.bytes(c.count));
    if (fold.carries_partner())
      c.net.recv(fold.partner, block(fold.partner), c.bytes(blocks.length(fold.partner)));
    allgather_recursive_doubling_blocks(c.net, fold, halving_order::far_first, buf, blocks, c.elem.size);
    if (fold.carries_partner()) c.net.send(fold.partner, buf, c.bytes(blocks.count()));
  });
}

}  // namespace collectives::detail
