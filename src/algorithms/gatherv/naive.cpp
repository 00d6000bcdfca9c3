// SPDX-License-Identifier: BSD-3-Clause
// gatherv_naive — the root receives every rank's block, of its own size, one rank after the other.
//
// Steps:   every rank ≠ root with a non-empty block sends it to the root; the root copies its own
//          block to recv_displs[root] and receives block r at recv_displs[r] from each rank r ≠ root
//          whose recv_counts[r] is not zero, in rank order.
// Cost:    (p−1)·α + (N − b_root)·β at the root (N = all blocks, b_root = the root's own); empty
//          blocks cost no message.
// Order:   no reduction.
// Limits:  none: any counts (zeros included), any displacements.
// Memory:  none extra: blocks land straight at their displacements.
// Ref:     the textbook linear gather; MPICH and Open MPI's linear MPI_Gatherv.

#include "algorithms/gatherv/gatherv.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void gatherv_naive(const call& c) {
  if (c.rank() != c.root) {
    if (c.count > 0) c.net.send(c.root, c.send, c.bytes(c.count));
    return;
  }
  const block_layout& blocks = *c.recv_blocks;
  for (int r = 0; r < c.size(); ++r) {
    std::byte* at = c.recv + c.bytes(blocks.displ(r));
    if (r == c.root)
      copy_bytes(at, c.send, c.bytes(c.count));
    else if (blocks.count(r) > 0)
      c.net.recv(r, at, c.bytes(blocks.count(r)));
  }
}

}  // namespace collectives::detail
