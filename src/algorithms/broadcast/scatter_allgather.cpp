// SPDX-License-Identifier: BSD-3-Clause
// broadcast_scatter_allgather — the root scatters its vector in p blocks along a binomial tree,
// then a ring all-gather gives every rank every block (van de Geijn).
//
// Steps:   cut the vector with block_partition(n, p) (block r belongs to rank r; the first n mod p
//          blocks one element larger); scatter_binomial_blocks in place in every rank's buffer,
//          then allgather_ring_blocks over the same partition. 4 ranks, root 1:
//            scatter: 1 → 2  b2 b3;   1 → 0  b0,  2 → 3  b3
//            ring:    3 steps, each rank passes one block to its right neighbour
// Cost:    (⌈log p⌉ + p − 1)·α + 2·(p−1)/p·nβ: about twice the bandwidth lower bound, against
//          ⌈log p⌉·nβ for binomial.
// Order:   no reduction.
// Limits:  any root: every binomial subtree is an interval of ranks, so its blocks are one
//          contiguous range of the buffer, in the absolute block order the ring expects.
//          Fewer elements than ranks (n < p): blocks n … p−1 are empty. The scatter skips empty
//          ranges, so ranks that own an empty block receive nothing there; the ring still runs
//          its p−1 steps, with zero-byte messages for empty blocks. Correct, but latency-bound:
//          binomial is the better choice for short vectors.
// Memory:  none extra: blocks travel straight between the ranks' buffers.
// Ref:     Barnett, Gupta, Payne, Shuler, van de Geijn, Watts, "Interprocessor collective
//          communication library (InterCom)" (1994); MPICH bcast_intra_scatter_ring_allgather.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/scatter/scatter.hpp"

namespace collectives::detail {

void broadcast_scatter_allgather(const call& c) {
  if (c.count == 0 || c.size() == 1) return;
  const binomial_tree tree(c.rank(), c.size(), c.root);
  const block_partition blocks(c.count, c.size());
  scatter_binomial_blocks(c.net, tree, blocks, c.elem.size, c.recv,
                          c.recv + c.bytes(blocks.offset(tree.first)));
  allgather_ring_blocks(c.net, c.recv, blocks, c.elem.size);
}

}  // namespace collectives::detail
