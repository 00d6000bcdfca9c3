// SPDX-License-Identifier: BSD-3-Clause
// allreduce_rabenseifner — recursive-halving reduce-scatter, then recursive-doubling all-gather,
// over one partition of the vector among a power-of-two group; the halving pairs neighbours first.
//
// Steps:   reduce_scatter_recursive_halving_blocks (near_first) pairs the group at distance 1, 2,
//          4, …, each pair keeping one half each of the run it still reduces, so member g ends
//          with part bit_reversed(g) reduced over every rank; allgather_recursive_doubling_blocks
//          undoes the halving in reverse, distance p/2 first and 1 last.
//            halving   d = 1: 0↔1  2↔3   ranks 0,2 keep b0–b1; ranks 1,3 keep b2–b3
//                      d = 2: 0↔2  1↔3   rank 0 keeps b0, 2 b1, 1 b2, 3 b3
//            doubling  d = 2: 0↔2  1↔3   gather half     d = 1: 0↔1  2↔3   gather all
//          Neighbours first (as MPICH): the largest steps, half the vector, pair ranks at
//          distance 1, which hosts of consecutive ranks keep on one host; with p and L (ranks per
//          host) powers of two only the steps at distance ≥ L cross, with n/2L and less, so each
//          host's link carries 2(H−1)/H·n per direction over the call (H hosts), the least any
//          all-reduce needs, where distance p/2 first carried L times that.
//          Non-power-of-two p = pof2 + rem: folded once for both phases (pof2_fold): the even
//          rank of each of the first rem pairs hands its vector to its odd partner first and
//          receives the result from it last.
// Cost:    2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (+ 3α + 2nβ + nγ fold): for the fold the vector
//          goes in two halves, the result comes back whole.
// Order:   each step pairs contiguous runs of ranks, but the side of ∘ the partner's sums take
//          does not follow rank order (the helper is shared with reduce_scatter): commutative ops
//          only. Every part is reduced by one rank and then copied, so every rank holds
//          identical bits.
// Limits:  none. The vector is cut into pof2 parts (block_partition); with fewer elements than
//          that some are empty and travel as empty messages.
// Memory:  the sums accumulate in recv; incoming runs land in at most half a vector (a quarter
//          when not in place and not carrying a partner).
// Ref:     Rabenseifner, "Optimization of collective reduction operations" (2004); Thakur,
//          Rabenseifner, Gropp, "Optimization of collective communication operations in MPICH"
//          (2005); MPICH allreduce_intra_reduce_scatter_allgather (the same order).

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allreduce_rabenseifner(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const pof2_fold fold(c.rank(), c.size());
  const block_partition parts(c.count, fold.pof2);
  reduce_scatter_recursive_halving_blocks(c.net, fold, halving_order::near_first, c.send, c.recv, parts,
                                          c.elem.size, *c.op);
  if (fold.sits_out()) {
    c.net.recv(fold.partner, c.recv, bytes);
    return;
  }
  allgather_recursive_doubling_blocks(c.net, fold, halving_order::near_first, c.recv, parts, c.elem.size);
  if (fold.carries_partner()) c.net.send(fold.partner, c.recv, bytes);
}

}  // namespace collectives::detail
