// SPDX-License-Identifier: BSD-3-Clause
// allgatherv_ring — allgather_ring for blocks of any size: every rank passes blocks to its right
// neighbour, p−1 times, each block as large as its owner's count.
//
// Steps:   allgather_ring_blocks over the blocks packed in rank order: at step s rank r sends
//          block (r − s) mod p to r+1 and receives block (r − s − 1) mod p from r−1.
//            step 0: 0→1 b0   1→2 b1   2→3 b2   3→0 b3
//            step 1: 0→1 b3   1→2 b0   2→3 b1   3→0 b2
//            step 2: 0→1 b2   1→2 b3   2→3 b0   3→0 b1
// Cost:    (p−1)α + Σ_steps (largest block in flight)β: (p−1)/p·Nβ equal, up to (p−1)·b_max·β
//          (N = all blocks): one dominant block costs that, since every step waits for it somewhere
//          on the ring.
// Order:   no reduction.
// Limits:  none: any counts (empty blocks travel as empty messages), any displacements.
// Memory:  none extra when recv's blocks are packed in rank order; otherwise a packed copy of N
//          elements (on_packed_result).
// Ref:     Chan, Heimlich, Purkayastha, van de Geijn, "Collective communication: theory,
//          practice, and experience" (2007); MPICH allgatherv_intra_ring.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allgatherv/allgatherv.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgatherv_ring(const call& c) {
  if (c.recv_blocks->total() == 0) return;
  on_packed_result(c, [&](std::byte* buf, const block_partition& blocks) {
    copy_bytes(buf + c.bytes(blocks.offset(c.rank())), c.send, c.bytes(c.count));
    if (c.size() > 1) allgather_ring_blocks(c.net, buf, blocks, c.elem.size);
  });
}

}  // namespace collectives::detail
