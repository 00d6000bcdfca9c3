// SPDX-License-Identifier: BSD-3-Clause
// allreduce_swing_bandwidth — Swing's bandwidth-optimal all-reduce: a Swing reduce-scatter, then
// a Swing all-gather running its steps in reverse, over one partition of the vector.
//
// Steps:   the vector is cut into pof2 parts, and member g owns the part at its position in
//          Swing's block map (kit/swing.hpp), where every set of parts a step hands over is one
//          run: the parts belong to no rank, so the map costs nothing here. The reduce-scatter
//          pairs r with r ± ρ(s) (+ if r is even) at s = 0 … log p − 1, each keeping the half of
//          its run holding its own part; the all-gather pairs them again at s = log p − 1 … 0.
//            p = 4, ranks 0–3 own parts 0 2 3 1:
//            halving   s = 0 (ρ = 1):  0↔1  2↔3   ranks 0,3 keep parts 0–1; ranks 1,2 parts 2–3
//                      s = 1 (ρ = −1): 0↔3  1↔2   rank 0 keeps part 0, 3 part 1, 1 part 2, 2 part 3
//            doubling  s = 1: 0↔3  1↔2   gather half     s = 0: 0↔1  2↔3   gather all
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs hands its vector to its odd partner first and receives the result from it last.
// Cost:    2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (+ 2α + 2nβ + nγ fold), as Rabenseifner's, with
//          partners about 2^(s+1)/3 ranks away at step s; the fold sends the vector whole both
//          ways. The map is built once per thread and p (O(p log p)).
// Order:   the halves are combined by distance, not rank order: commutative ops only. Every part
//          is reduced by one rank and then copied, so every rank holds identical bits.
// Limits:  none. The vector is cut into pof2 parts (block_partition); with fewer elements than
//          that some are empty and travel as empty messages.
// Memory:  the sums accumulate in recv; incoming runs land in at most half a vector (a quarter
//          when not in place), and a vector for the partner's input in place.
// Ref:     De Sensi, Bonato, Saam, Hoefler, "Swing: Short-cutting Rings for Higher Bandwidth
//          Allreduce" (NSDI 2024); the block map of De Sensi et al., "Bine Trees" (SC 2025).

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void allreduce_swing_bandwidth(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const pof2_fold fold(c.rank(), c.size());
  if (fold.sits_out()) {
    c.net.send(fold.partner, c.send, bytes);
    c.net.recv(fold.partner, c.recv, bytes);
    return;
  }
  const swing_map& map = swing_map_of(fold.pof2);
  const block_partition parts(c.count, fold.pof2);
  const std::byte* mine = c.send;
  if (fold.carries_partner()) {
    const scratch theirs = make_scratch(c.send == c.recv ? bytes : 0);
    std::byte* to = c.send == c.recv ? theirs.get() : c.recv;
    c.net.recv(fold.partner, to, bytes);
    combine(*c.op, c.send == c.recv ? to : c.send, c.recv, c.count);
    mine = c.recv;
  }
  reduce_scatter_swing_blocks(c.net, fold, map, mine, c.recv, parts, c.elem.size, *c.op);
  allgather_swing_blocks(c.net, fold, map, c.recv, parts, c.elem.size);
  if (fold.carries_partner()) c.net.send(fold.partner, c.recv, bytes);
}

}  // namespace collectives::detail
