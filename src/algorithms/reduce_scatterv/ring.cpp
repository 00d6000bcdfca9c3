// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatterv_ring — reduce_scatter_ring for blocks of any size: partial sums travel once
// around the ring, each rank adding its input; after p−1 steps every rank holds its own block
// reduced over all ranks.
//
// Steps:   reduce_scatter_ring_blocks over the blocks of recv_counts: at step s rank r sends the
//          partial sum of block (r − s − 1) mod p to r+1 and receives that of block (r − s − 2)
//          mod p from r−1, adding its own input of it; the block received last is r's own.
//            step 0: 0→1 b3   1→2 b0   2→3 b1   3→0 b2     (each sum holds 1 rank's input)
//            step 2: 0→1 b1   1→2 b2   2→3 b3   3→0 b0     → rank r holds b_r of all 4 ranks
// Cost:    (p−1)α + (p−1)/p·N(β + γ) equal, up to (p−1)·b_max·(β + γ) (N = the whole vector): every
//          block passes through p−1 ranks, so a dominant block costs up to that.
// Order:   the partial sums are folded in ring order, not rank order: commutative ops only.
// Limits:  none: any counts (empty blocks travel as empty messages).
// Memory:  an N-element accumulator where the partial sums pass (the equal-block ring's
//          alternating two-block trick needs blocks of one size).
// Ref:     Patarasuk, Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
//          workstations" (2009); MPICH reduce_scatter_intra_ring (Open MPI's "ring").

#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "algorithms/reduce_scatterv/reduce_scatterv.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_scatterv_ring(const call& c) {
  const block_partition blocks = c.recv_blocks->partition();
  if (blocks.count() == 0) return;
  const std::byte* own_input = c.send + c.bytes(blocks.offset(c.rank()));
  if (c.size() == 1) {
    copy_bytes(c.recv, own_input, c.bytes(c.count));
    return;
  }
  scratch acc = make_scratch(c.bytes(blocks.count()));
  reduce_scatter_ring_blocks(c.net, c.send, acc.get(), blocks, c.elem.size, *c.op);
  copy_bytes(c.recv, acc.get() + c.bytes(blocks.offset(c.rank())), c.bytes(c.count));
}

}  // namespace collectives::detail
