// SPDX-License-Identifier: BSD-3-Clause
// reduce_bine_bandwidth — the Bine paper's reduce for long vectors: a Swing reduce-scatter of the
// vector's parts, then a gather of the reduced parts to the root along the reverse of
// broadcast_bine_bandwidth's scatter tree.
//
// Steps:   the vector is cut into pof2 parts laid out in Swing's block map (kit/swing.hpp);
//          reduce_scatter_swing_blocks leaves member g with the part at its position reduced over
//          every rank. Gather, s = log p − 1 … 0: a member that the scatter from the root's member
//          would reach at step s (swing_scatter_step) sends the aligned run of pof2/2^(s+1)
//          positions it holds to its partner g ± ρ(s) (+ if g is even) and drops out; the members
//          reached before s receive the other half of their doubled run from theirs.
//            p = 4, root 0, ranks 0–3 at positions 0 2 3 1:
//            halving  s = 0: 0↔1  2↔3     s = 1: 0↔3  1↔2    rank r keeps the part at its position
//            gather   s = 1: 3 → 0 part 1,  2 → 1 part 3      s = 0: 1 → 0 parts 2–3
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs hands its vector to its odd partner first; if the root is such a rank, the parts
//          gather at its partner's member, except that the two halves of the last step go
//          straight to the root.
// Cost:    2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (+ α + nβ + nγ fold, α + n/2·β more when the
//          root sits out), as Rabenseifner's with partners about 2^(s+1)/3 ranks away at step
//          s. The map is built once per thread and p (O(p log p)).
// Order:   the halves are combined by distance, not rank order: commutative ops only.
// Limits:  any root. The vector is cut into pof2 parts (block_partition); with fewer elements
//          than that some are empty and travel as empty messages.
// Memory:  the root accumulates in recv; other group members in one vector. Incoming runs of
//          the halving land in a quarter of a vector.
// Ref:     De Sensi et al., "Bine Trees: Enhancing Collective Operations by Optimizing
//          Communication Locality" (SC 2025), the bandwidth-optimal reduce; De Sensi, Bonato,
//          Saam, Hoefler, "Swing: Short-cutting Rings for Higher Bandwidth Allreduce" (NSDI 2024).

#include <algorithm>
#include <utility>

#include "algorithms/reduce/reduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"
#include "kit/swing.hpp"

namespace collectives::detail {

void reduce_bine_bandwidth(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const int p = c.size();
  const pof2_fold fold(c.rank(), p), at_root(c.root, p);
  const bool is_root = c.rank() == c.root;
  if (fold.sits_out() && !is_root) {
    c.net.send(fold.partner, c.send, bytes);
    return;
  }
  const swing_map& map = swing_map_of(fold.pof2);
  const block_partition parts(c.count, fold.pof2);
  // The member the parts gather at: the root's own, or that of the partner carrying it.
  const int top = at_root.sits_out() ? pof2_fold(at_root.partner, p).group_rank : at_root.group_rank;
  const auto run = [&](std::byte* base, int first, int n) {
    return std::pair{base + c.bytes(parts.offset(first)), c.bytes(parts.length(first, n))};
  };
  if (fold.sits_out()) {
    c.net.send(fold.partner, c.send, bytes);
    const int half = fold.pof2 / 2;
    for (int g : {top, map.peer(top, 0)}) {
      const auto [where, length] = run(c.recv, map.position(g) & -half, half);
      c.net.recv(fold.rank_of(g), where, length);
    }
    return;
  }
  scratch own_acc = is_root ? nullptr : make_scratch(bytes);
  std::byte* acc = is_root ? c.recv : own_acc.get();
  const std::byte* mine = c.send;
  if (fold.carries_partner()) {
    c.net.recv(fold.partner, acc, bytes);
    combine(*c.op, c.send, acc, c.count);
    mine = acc;
  }
  reduce_scatter_swing_blocks(c.net, fold, map, mine, acc, parts, c.elem.size, *c.op);

  const int me = fold.group_rank, own = map.position(me);
  const int received_at = swing_scatter_step(map, me, top);
  for (int s = map.steps() - 1; s >= std::max(received_at, 0); --s) {
    const int half = fold.pof2 >> (s + 1), held = own & -half;
    const int peer = fold.rank_of(map.peer(me, s));
    const bool straight_to_root = s == 0 && at_root.sits_out();
    if (s == received_at || straight_to_root) {
      const trace_blocks mark({held, half}, {}, fold.pof2);
      const auto [where, length] = run(acc, held, half);
      c.net.send(straight_to_root ? c.root : peer, where, length);
      return;
    }
    const trace_blocks mark({}, {held ^ half, half}, fold.pof2);
    const auto [where, length] = run(acc, held ^ half, half);
    c.net.recv(peer, where, length);
  }
}

}  // namespace collectives::detail
