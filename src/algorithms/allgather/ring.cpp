// SPDX-License-Identifier: BSD-3-Clause
// allgather_ring — every rank passes blocks to its right neighbour, p−1 times.
//
// Steps:   at step s = 0 … p−2 rank r sends block (r − s) mod p to r+1 and receives block
//          (r − s − 1) mod p from r−1, so after p−1 steps every rank has every block.
//            step 0: 0→1 b0   1→2 b1   2→3 b2   3→0 b3
//            step 1: 0→1 b3   1→2 b0   2→3 b1   3→0 b2
//            step 2: 0→1 b2   1→2 b3   2→3 b0   3→0 b1
// Cost:    (p−1)α + (p−1)/p·nβ, n the whole result (n/p per block): bandwidth-optimal.
// Order:   no reduction.
// Limits:  none; uneven blocks are handled by allgather_ring_blocks (used by allreduce_ring and
//          broadcast_scatter_allgather).
// Memory:  none extra: blocks travel straight between receive buffers.
// Ref:     Chan, Heimlich, Purkayastha, van de Geijn, "Collective communication: theory,
//          practice, and experience" (2007).

#include "algorithms/allgather/allgather.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgather_ring_blocks(const transport& net, std::byte* buf, const block_partition& blocks,
                           std::size_t elem_size) {
  const int p = net.size(), rank = net.rank();
  const int right = (rank + 1) % p, left = (rank - 1 + p) % p;
  for (int step = 0; step < p - 1; ++step) {
    const int send_block = (rank - step + p) % p;
    const int recv_block = (rank - step - 1 + p) % p;
    const trace_blocks mark(send_block, recv_block, p);
    net.exchange(right, buf + blocks.offset(send_block) * elem_size, blocks.length(send_block) * elem_size,
                 left, buf + blocks.offset(recv_block) * elem_size, blocks.length(recv_block) * elem_size);
  }
}

void allgather_ring(const call& c) {
  if (c.count == 0) return;
  copy_bytes(c.block(c.recv, c.rank()), c.send, c.bytes(c.count));
  if (c.size() == 1) return;
  allgather_ring_blocks(c.net, c.recv,
                        block_partition(c.count * static_cast<std::size_t>(c.size()), c.size()), c.elem.size);
}

}  // namespace collectives::detail
