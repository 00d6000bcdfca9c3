// SPDX-License-Identifier: BSD-3-Clause
// broadcast_scatter_recursive_doubling — the root scatters its vector in p blocks along a binomial
// tree, then a recursive-doubling all-gather gives every rank every block: van de Geijn's
// broadcast with log p exchanges in place of the ring's p − 1 steps.
//
// Steps:   cut the vector with block_partition(n, p) (block r belongs to rank r; the first n mod p
//          blocks one element larger); scatter_binomial_blocks in place in every rank's buffer,
//          then allgather_recursive_doubling_blocks over the same partition: with d = 1, 2, …, p/2
//          rank r swaps the run of d blocks it holds for rank r XOR d's. 4 ranks, root 0:
//            scatter: 0 → 2  b2 b3;   0 → 1  b1,  2 → 3  b3
//            d = 1:   0↔1  2↔3        ranks 0,1 hold b0–b1; ranks 2,3 hold b2–b3
//            d = 2:   0↔2  1↔3        every rank holds b0–b3
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs hands its block to its odd partner, which stands for both blocks in the doubling
//          and sends it the whole vector last (unless it is the root, which has it).
// Cost:    2⌈log p⌉α + 2(p−1)/p·nβ; not a power of two: + 2α + (n/p + n)β: scatter_allgather's
//          bandwidth, with log p latencies in place of the ring's p − 1; for p not a power of two
//          the fold hands a block in and the whole vector back.
// Order:   no reduction.
// Limits:  any root (the scatter's subtrees are intervals of ranks, so each rank ends with its
//          own block, as the doubling expects); fewer elements than ranks: empty blocks travel as
//          zero-byte messages. Latency-bound for short vectors, where binomial is the choice.
// Memory:  none extra: blocks travel straight between the ranks' buffers.
// Ref:     Barnett, Gupta, Payne, Shuler, van de Geijn, Watts, "Interprocessor collective
//          communication library (InterCom)" (1994); Thakur, Rabenseifner, Gropp, "Optimization of
//          collective communication operations in MPICH" (2005), broadcast for medium messages.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/scatter/scatter.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void broadcast_scatter_recursive_doubling(const call& c) {
  if (c.count == 0 || c.size() == 1) return;
  const int p = c.size();
  const binomial_tree tree(c.rank(), p, c.root);
  const block_partition blocks(c.count, p);
  scatter_binomial_blocks(c.net, tree, blocks, c.elem.size, c.recv,
                          c.recv + c.bytes(blocks.offset(tree.first)));
  const pof2_fold fold(c.rank(), p);
  const auto block = [&](int b) { return c.recv + c.bytes(blocks.offset(b)); };
  if (fold.sits_out()) {
    const trace_blocks mark({c.rank(), 1}, {0, p}, p);
    c.net.send(fold.partner, block(c.rank()), c.bytes(blocks.length(c.rank())));
    if (c.rank() != c.root) c.net.recv(fold.partner, c.recv, c.bytes(c.count));
    return;
  }
  if (fold.carries_partner()) {
    const trace_blocks mark({}, {fold.partner, 1}, p);
    c.net.recv(fold.partner, block(fold.partner), c.bytes(blocks.length(fold.partner)));
  }
  allgather_recursive_doubling_blocks(c.net, fold, halving_order::far_first, c.recv, blocks, c.elem.size);
  const trace_blocks mark({0, p}, {}, p);
  if (fold.carries_partner() && fold.partner != c.root) c.net.send(fold.partner, c.recv, c.bytes(c.count));
}

}  // namespace collectives::detail
