// SPDX-License-Identifier: BSD-3-Clause
// scatterv_naive — the root sends rank r the block at send_displs[r], of send_counts[r]
// elements, one rank after the other.
//
// Steps:   the root copies its own block into recv, then sends block r to each rank r ≠ root
//          whose send_counts[r] is not zero, in rank order; every other rank with a non-empty
//          recv receives once from the root.
// Cost:    (p−1)·α + (N − b_root)·β at the root (N = all blocks, b_root = the root's own); empty
//          blocks cost no message.
// Order:   no reduction.
// Limits:  none: any counts (zeros included), any displacements.
// Memory:  none extra: blocks leave straight from their displacements.
// Ref:     the textbook linear scatter; MPICH and Open MPI's linear MPI_Scatterv.

#include "algorithms/scatterv/scatterv.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void scatterv_naive(const call& c) {
  if (c.rank() != c.root) {
    if (c.count > 0) c.net.recv(c.root, c.recv, c.bytes(c.count));
    return;
  }
  const block_layout& blocks = *c.send_blocks;
  for (int r = 0; r < c.size(); ++r) {
    const std::byte* at = c.send + c.bytes(blocks.displ(r));
    if (r == c.root)
      copy_bytes(c.recv, at, c.bytes(c.count));
    else if (blocks.count(r) > 0)
      c.net.send(r, at, c.bytes(blocks.count(r)));
  }
}

}  // namespace collectives::detail
