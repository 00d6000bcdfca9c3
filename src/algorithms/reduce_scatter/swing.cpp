// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatter_swing — Swing's reduce-scatter: log p exchanges of half of what is left, with
// partners at distance 1, 1, 3, 5, 11, … in alternating directions instead of p/2, p/4, …, 1.
//
// Steps:   the blocks are laid out in Swing's block map (kit/swing.hpp), where every set of blocks
//          a step hands over is one run; at step s rank r pairs with r ± ρ(s) (+ if r is even),
//          keeps the half of its run holding its own block and sends the half its partner ends in.
//            p = 4, the blocks laid out b0 b3 b1 b2:
//            s = 0 (ρ = 1):  0↔1  2↔3   ranks 0,3 keep b0 b3; ranks 1,2 keep b1 b2
//            s = 1 (ρ = −1): 0↔3  1↔2   each keeps its own block, reduced over all 4 ranks
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs hands its whole vector to its odd partner first and gets its block back at the
//          end; the partner, standing for both ranks, reduces both their blocks.
// Cost:    log p·α + (p−1)/p·n(β + γ) (+ fold), n the whole vector; the fold costs
//          2α + n(β + γ) + n/p·β. The block map costs one local copy of the vector into the
//          accumulator (built once per thread and p).
// Order:   the halves are combined by distance, not rank order: commutative ops only.
// Limits:  none; counts are whole blocks per rank, so no part is empty unless count is 0.
// Memory:  a p·n accumulator in the block map's order, plus the landing of each incoming run
//          (half the vector); a rank that carries a partner first takes a second vector for its
//          partner's input, released before the exchanges.
// Ref:     De Sensi, Bonato, Saam, Hoefler, "Swing: Short-cutting Rings for Higher Bandwidth
//          Allreduce" (NSDI 2024); the block map of De Sensi et al., "Bine Trees" (SC 2025).

#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_scatter_swing_blocks(const transport& net, const pof2_fold& fold, const swing_map& map,
                                 const std::byte* in, std::byte* acc, const block_partition& runs,
                                 std::size_t elem_size, const reduction& op) {
  const int pof2 = fold.pof2, own = map.position(fold.group_rank);
  // Until the first sums are formed, an incoming run lands straight in `acc` next to this rank's
  // input in `in`; afterwards (or in place from the start) in `landing`, at most the largest run
  // received after the first landing in `acc`: half the vector in place, a quarter otherwise.
  const std::byte* mine = in;
  std::size_t landing_length = 0;
  if (in == acc)
    landing_length = std::max(runs.length(0, pof2 / 2), runs.length(pof2 / 2, pof2 / 2));
  else if (pof2 >= 4)
    landing_length = runs.length(own & -(pof2 / 4), pof2 / 4);
  const scratch landing = make_scratch(landing_length * elem_size);
  for (int s = 0; s < map.steps(); ++s) {
    const int half = pof2 >> (s + 1), keep = own & -half, give = keep ^ half;
    const int peer = fold.rank_of(map.peer(fold.group_rank, s));
    std::byte* sum = acc + runs.offset(keep) * elem_size;
    std::byte* to = mine == acc ? landing.get() : sum;
    const trace_blocks mark({give, half}, {keep, half}, pof2);
    net.exchange(peer, mine + runs.offset(give) * elem_size, runs.length(give, half) * elem_size, peer, to,
                 runs.length(keep, half) * elem_size);
    combine(op, mine == acc ? landing.get() : mine + runs.offset(keep) * elem_size, sum, runs.length(keep, half));
    mine = acc;
  }
}

void reduce_scatter_swing(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const int p = c.size();
  const std::size_t total = c.count * static_cast<std::size_t>(p);
  const pof2_fold fold(c.rank(), p);
  if (fold.sits_out()) {
    {
      const trace_blocks mark({0, p}, {}, p);
      c.net.send(fold.partner, c.send, c.bytes(total));
    }
    const trace_blocks mark({}, {c.rank(), 1}, p);
    c.net.recv(fold.partner, c.recv, bytes);
    return;
  }
  const swing_map& map = swing_map_of(fold.pof2);
  const block_partition runs = swing_rank_runs(fold, map, c.count);
  scratch acc = make_scratch(c.bytes(total));
  {
    // The partner's vector folded into this rank's in rank order, then laid out in the map's.
    scratch both = fold.carries_partner() ? make_scratch(c.bytes(total)) : nullptr;
    const std::byte* mine = c.send;
    if (fold.carries_partner()) {
      const trace_blocks mark({}, {0, p}, p);
      c.net.recv(fold.partner, both.get(), c.bytes(total));
      combine(*c.op, c.send, both.get(), total);
      mine = both.get();
    }
    for (int x = 0; x < fold.pof2; ++x)
      copy_bytes(acc.get() + c.bytes(runs.offset(x)), c.block(mine, fold.first_rank_of(map.member(x))),
                 c.bytes(runs.length(x)));
  }
  reduce_scatter_swing_blocks(c.net, fold, map, acc.get(), acc.get(), runs, c.elem.size, *c.op);
  // Unfold: a rank that carried its partner reduced both their blocks and hands back the partner's.
  const std::byte* done = acc.get() + c.bytes(runs.offset(map.position(fold.group_rank)));
  const trace_blocks mark(fold.partner, c.rank(), p);
  if (fold.carries_partner()) {
    c.net.send(fold.partner, done, bytes);
    done += bytes;
  }
  copy_bytes(c.recv, done, bytes);
}

}  // namespace collectives::detail
