// SPDX-License-Identifier: BSD-3-Clause
// allgatherv_naive — gatherv to rank 0, then broadcast the whole result from rank 0.
//
// Steps:   gatherv_naive (root 0) of the blocks packed in rank order; broadcast_naive of the
//          N-element packed result.
// Cost:    (p−1)·α + (N − b0)·β + (p−1)·(α + Nβ) = 2(p−1)α + (p − 1 + (N − b0)/N)·Nβ
//          (N = all blocks, b0 = rank 0's).
// Order:   no reduction.
// Limits:  none: any counts (zeros included), any displacements.
// Memory:  none extra when recv's blocks are packed in rank order; otherwise a packed copy of N
//          elements (on_packed_result).
// Ref:     the identity allgatherv = gatherv + broadcast.

#include "algorithms/allgatherv/allgatherv.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/gatherv/gatherv.hpp"

namespace collectives::detail {

void allgatherv_naive(const call& c) {
  if (c.recv_blocks->total() == 0) return;
  on_packed_result(c, [&](std::byte* buf, const block_partition& blocks) {
    block_layout packed{c.recv_blocks->counts, {}};
    for (int r = 0; r < c.size(); ++r) packed.displs.push_back(blocks.offset(r));
    gatherv_naive({c.net, c.send, buf, c.count, c.elem, nullptr, 0, nullptr, &packed});
    broadcast_naive({c.net, nullptr, buf, blocks.count(), c.elem, nullptr, 0});
  });
}

}  // namespace collectives::detail
