// SPDX-License-Identifier: BSD-3-Clause
// allgather_swing — Swing's all-gather: log p exchanges of everything gathered so far, with
// partners at distance …, 11, 5, 3, 1, 1 in alternating directions instead of 1, 2, 4, …, p/2.
//
// Steps:   the blocks are gathered in Swing's block map (kit/swing.hpp), where the blocks each
//          rank holds are one run; at step s = log p − 1 … 0 rank r pairs with r ± ρ(s) (+ if r
//          is even) and swaps its run for the partner's, the other half of the doubled run.
//            p = 4, the blocks laid out b0 b3 b1 b2:
//            s = 1 (ρ = −1): 0↔3  1↔2   ranks 0,3 hold b0 b3; ranks 1,2 hold b1 b2
//            s = 0 (ρ = 1):  0↔1  2↔3   every rank holds all four
//          then each rank copies the blocks from the map's order into rank order in recv.
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs gives its block to its odd partner first, which then stands for both blocks,
//          and receives the whole result from it last.
// Cost:    log p·α + (p−1)/p·nβ (+ 2α + (1+1/p)nβ fold) + local reordering, n the whole result:
//          the block map costs one local copy of it (built once per thread and p).
// Order:   no reduction.
// Limits:  none; allgather_swing_blocks also takes uneven, even empty, runs.
// Memory:  the whole result once more, gathered in the block map's order.
// Ref:     De Sensi, Bonato, Saam, Hoefler, "Swing: Short-cutting Rings for Higher Bandwidth
//          Allreduce" (NSDI 2024); the block map of De Sensi et al., "Bine Trees" (SC 2025).

#include "algorithms/allgather/allgather.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void allgather_swing_blocks(const transport& net, const pof2_fold& fold, const swing_map& map, std::byte* buf,
                            const block_partition& runs, std::size_t elem_size, int received_at) {
  if (fold.sits_out()) return;
  const int pof2 = fold.pof2, own = map.position(fold.group_rank);
  const auto at = [&](int x) { return buf + runs.offset(x) * elem_size; };
  for (int s = map.steps() - 1; s >= 0; --s) {
    // This rank holds the run of `half` positions around its own; the partner the other half.
    const int half = pof2 >> (s + 1), mine = own & -half, theirs = mine ^ half;
    const int peer = fold.rank_of(map.peer(fold.group_rank, s));
    const std::size_t sent = runs.length(mine, half) * elem_size,
                      received = runs.length(theirs, half) * elem_size;
    if (received_at < s) {
      const trace_blocks mark({mine, half}, {}, pof2);
      net.send(peer, at(mine), sent);
    } else if (received_at == s) {
      const trace_blocks mark({}, {theirs, half}, pof2);
      net.recv(peer, at(theirs), received);
    } else {
      const trace_blocks mark({mine, half}, {theirs, half}, pof2);
      net.exchange(peer, at(mine), sent, peer, at(theirs), received);
    }
  }
}

void allgather_swing(const call& c) {
  if (c.count == 0) return;
  const std::size_t bytes = c.bytes(c.count);
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const int p = c.size();
  const std::size_t total = c.count * static_cast<std::size_t>(p);
  const pof2_fold fold(c.rank(), p);
  if (fold.sits_out()) {
    const trace_blocks mark({c.rank(), 1}, {0, p}, p);
    c.net.send(fold.partner, c.send, bytes);
    c.net.recv(fold.partner, c.recv, c.bytes(total));
    return;
  }
  const swing_map& map = swing_map_of(fold.pof2);
  const block_partition runs = swing_rank_runs(fold, map, c.count);
  const scratch gathered = make_scratch(c.bytes(total));
  // Fold in: a member's run is its own block, preceded by its partner's if it carries one.
  std::byte* own = gathered.get() + c.bytes(runs.offset(map.position(fold.group_rank)));
  if (fold.carries_partner()) {
    const trace_blocks mark({}, {fold.partner, 1}, p);
    c.net.recv(fold.partner, own, bytes);
    own += bytes;
  }
  copy_bytes(own, c.send, bytes);
  allgather_swing_blocks(c.net, fold, map, gathered.get(), runs, c.elem.size);
  for (int x = 0; x < fold.pof2; ++x)
    copy_bytes(c.block(c.recv, fold.first_rank_of(map.member(x))), gathered.get() + c.bytes(runs.offset(x)),
               c.bytes(runs.length(x)));
  const trace_blocks mark({0, p}, {}, p);
  if (fold.carries_partner()) c.net.send(fold.partner, c.recv, c.bytes(total));
}

}  // namespace collectives::detail
