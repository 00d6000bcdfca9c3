// SPDX-License-Identifier: BSD-3-Clause
// broadcast_bine_bandwidth — the Bine paper's broadcast for long vectors: a scatter from the root
// along Swing's halving order, then a Swing all-gather of the parts.
//
// Steps:   the vector is cut into pof2 parts laid out in Swing's block map (kit/swing.hpp): member g
//          ends the scatter holding the part at its position, the parts belong to no rank, so the
//          map costs nothing. Scatter, s = 0 … log p − 1: every member holding an aligned run of
//          pof2/2^s positions keeps the half with its own position and hands the other half to its
//          partner g ± ρ(s) (+ if g is even), whose position lies in it (swing_scatter_step).
//          Then allgather_swing_blocks at s = log p − 1 … 0, where the steps from a member's
//          scatter step on send one way only: the holder already has the other's half.
//            p = 4, root 0, ranks 0–3 at positions 0 2 3 1:
//            scatter     s = 0 (ρ = 1):  0 → 1 parts 2–3
//                        s = 1 (ρ = −1): 0 → 3 part 1,  1 → 2 part 3
//            all-gather  s = 1:          0 → 3 part 0,  1 → 2 part 2
//                        s = 0:          0 → 1 parts 0–1,  3↔2
//          Non-power-of-two p = pof2 + rem (pof2_fold): a root that sits out hands its vector to
//          its odd partner first, which scatters from its member; each odd rank of the first rem
//          pairs hands the whole vector to its even partner last (unless that is the root).
// Cost:    2 log p·α + 2(p−1)/p·nβ (+ α + nβ fold, α + nβ more when the root sits out), as
//          scatter_recursive_doubling's with partners about 2^(s+1)/3 ranks away at step s.
//          The map is built once per thread and p (O(p log p)).
// Order:   no reduction.
// Limits:  any root. The vector is cut into pof2 parts (block_partition); with fewer elements
//          than that some are empty and travel as empty messages.
// Memory:  none extra: parts travel straight between the ranks' buffers.
// Ref:     De Sensi et al., "Bine Trees: Enhancing Collective Operations by Optimizing
//          Communication Locality" (SC 2025), the bandwidth-optimal broadcast; De Sensi, Bonato,
//          Saam, Hoefler, "Swing: Short-cutting Rings for Higher Bandwidth Allreduce" (NSDI 2024).

#include <algorithm>

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "kit/pof2_fold.hpp"
#include "kit/swing.hpp"

namespace collectives::detail {

void broadcast_bine_bandwidth(const call& c) {
  if (c.count == 0 || c.size() == 1) return;
  const int p = c.size();
  const std::size_t bytes = c.bytes(c.count);
  const pof2_fold fold(c.rank(), p), at_root(c.root, p);
  if (fold.sits_out()) {
    if (c.rank() == c.root)
      c.net.send(fold.partner, c.recv, bytes);
    else
      c.net.recv(fold.partner, c.recv, bytes);
    return;
  }
  if (fold.partner == c.root) c.net.recv(c.root, c.recv, bytes);
  // The member the scatter starts at: the root's own, or that of the partner it handed the vector.
  const int top = at_root.sits_out() ? pof2_fold(at_root.partner, p).group_rank : at_root.group_rank;
  const swing_map& map = swing_map_of(fold.pof2);
  const block_partition parts(c.count, fold.pof2);
  const int me = fold.group_rank, own = map.position(me);
  const int received_at = swing_scatter_step(map, me, top);
  const auto at = [&](int x) { return c.recv + c.bytes(parts.offset(x)); };
  for (int s = std::max(received_at, 0); s < map.steps(); ++s) {
    const int half = fold.pof2 >> (s + 1), kept = own & -half, given = kept ^ half;
    const int peer = fold.rank_of(map.peer(me, s));
    if (s == received_at) {
      const trace_blocks mark({}, {kept, half}, fold.pof2);
      c.net.recv(peer, at(kept), c.bytes(parts.length(kept, half)));
    } else {
      const trace_blocks mark({given, half}, {}, fold.pof2);
      c.net.send(peer, at(given), c.bytes(parts.length(given, half)));
    }
  }
  allgather_swing_blocks(c.net, fold, map, c.recv, parts, c.elem.size, received_at);
  if (fold.carries_partner() && fold.partner != c.root) c.net.send(fold.partner, c.recv, bytes);
}

}  // namespace collectives::detail
