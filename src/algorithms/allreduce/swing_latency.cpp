// SPDX-License-Identifier: BSD-3-Clause
// allreduce_swing_latency — Swing's latency-optimal all-reduce: log p exchanges of the whole
// vector with Swing's partners, far ones first, each pair combining (lower run) ∘ (higher run).
//
// Steps:   at s = log p − 1 … 0 (the order of allgather_swing_blocks) member g swaps its running
//          result with g ± ρ(s) (+ if g is even). In Swing's block map (kit/swing.hpp) the partner's
//          position differs from g's in the bit pof2/2^(s+1) and in no higher one, so before step
//          s each holds the reduction over the aligned run of pof2/2^(s+1) positions around its
//          own, and the two runs are the halves of the doubled run. Both compute (lower half's)
//          ∘ (higher half's): by induction every member of a run holds the same expression over
//          it, so every rank ends with identical bits. (Near partners first would pair runs that
//          are not halves of one run: pairs reach the same set by different groupings.)
//            p = 4, ranks 0–3 at positions 0 2 3 1:
//            s = 1 (ρ = −1): 0↔3  1↔2    ranks 0,3: x0∘x3          ranks 1,2: x1∘x2
//            s = 0 (ρ = 1):  0↔1  2↔3    every rank: (x0∘x3)∘(x1∘x2)
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs hands its vector to its odd partner first and receives the result from it last.
// Cost:    log p·(α + nβ + nγ) (+ 2α + 2nβ + nγ fold), as recursive doubling's, with partners
//          about 2^(s+1)/3 ranks away at step s. The map is built once per thread and p (O(p log p)).
// Order:   runs of positions, not of ranks: commutative ops only.
// Limits:  none.
// Memory:  one vector, where the partner's result lands; the result alternates between it and
//          recv, starting in whichever makes it end in recv.
// Ref:     De Sensi, Bonato, Saam, Hoefler, "Swing: Short-cutting Rings for Higher Bandwidth
//          Allreduce" (NSDI 2024); the distance-halving butterfly of De Sensi et al., "Bine Trees"
//          (SC 2025).

#include <bit>
#include <utility>

#include "algorithms/allreduce/allreduce.hpp"
#include "kit/pof2_fold.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"
#include "kit/swing.hpp"

namespace collectives::detail {

void allreduce_swing_latency(const call& c) {
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
  const int own = map.position(fold.group_rank);
  // The result moves to the other buffer at every step whose partner's run lies above (one per
  // zero bit of the position): with an odd number of moves it starts in scratch, so it ends in recv.
  scratch other = make_scratch(bytes);
  const int moves = map.steps() - std::popcount(static_cast<unsigned>(own));
  std::byte* result = moves % 2 == 0 ? c.recv : other.get();
  std::byte* incoming = moves % 2 == 0 ? other.get() : c.recv;
  // The caller's input is sent untouched by the first step; copied first when the fold combines
  // into it, or when in place it is where the partner's lands.
  const std::byte* mine = c.send;
  if (fold.carries_partner() || mine == incoming) {
    copy_bytes(result, c.send, bytes);
    mine = result;
  }
  if (fold.carries_partner())
    recv_reduce(c.net, fold.partner, result, incoming, c.count, c.elem.size, *c.op, peer_side::lower);
  for (int s = map.steps() - 1; s >= 0; --s) {
    const int half = fold.pof2 >> (s + 1);
    const int peer = fold.rank_of(map.peer(fold.group_rank, s));
    c.net.exchange(peer, mine, bytes, peer, incoming, bytes);
    // lower ∘ higher, computed where the higher operand lies, as recursive doubling does.
    if ((own & half) != 0) {
      copy_bytes(result, mine, bytes);
      combine(*c.op, incoming, result, c.count);
    } else {
      combine(*c.op, mine, incoming, c.count);
      std::swap(result, incoming);
    }
    mine = result;
  }
  if (fold.carries_partner()) c.net.send(fold.partner, c.recv, bytes);
}

}  // namespace collectives::detail
