// SPDX-License-Identifier: BSD-3-Clause
// allreduce_ring — ring reduce-scatter, then ring all-gather, over one partition of the vector
// into p blocks: each rank reduces one block, then the reduced blocks go around the ring.
//
// Steps:   reduce_scatter_ring_blocks: p−1 steps after which rank r holds block r reduced over
//          every rank; allgather_ring_blocks: p−1 steps passing the reduced blocks on.
//            reduce-scatter  step 0: 0→1 b3  1→2 b0  2→3 b1  3→0 b2   (+ own input)
//                            step 2: 0→1 b1  1→2 b2  2→3 b3  3→0 b0   → rank r: b_r reduced
//            all-gather      step 0: 0→1 b0  1→2 b1  2→3 b2  3→0 b3
//                            step 2: 0→1 b2  1→2 b3  2→3 b0  3→0 b1   → every rank: all
// Cost:    2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ: the bandwidth lower bound.
// Order:   ring order, not rank order: commutative ops only. Every block is reduced by one
//          rank and then copied, so every rank holds identical bits.
// Limits:  none. Blocks differ by at most one element (block_partition); with fewer elements
//          than ranks some are empty and travel as empty messages.
// Memory:  none extra: the partial sums accumulate in recv. In place (send == recv) one block,
//          where each partial sum lands before this rank's input, which it replaces, is added.
// Ref:     Patarasuk, Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
//          workstations" (2009).

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allreduce_ring(const call& c) {
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, c.bytes(c.count));
    return;
  }
  const block_partition blocks(c.count, c.size());
  reduce_scatter_ring_blocks(c.net, c.send, c.recv, blocks, c.elem.size, *c.op);
  allgather_ring_blocks(c.net, c.recv, blocks, c.elem.size);
}

}  // namespace collectives::detail
