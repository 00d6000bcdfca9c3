// SPDX-License-Identifier: BSD-3-Clause
// reduce_rabenseifner — recursive-halving reduce-scatter, then a binomial gather of the reduced
// parts to the root: each rank reduces one part, the root collects them.
//
// Steps:   reduce_scatter_recursive_halving_blocks leaves group member g with part g reduced
//          over every rank; the parts then gather in the reverse order of the halving, towards
//          the root's member t: with d = 1, 2, …, p/2, member g with (g XOR t) & d sends the
//          aligned run of d parts it holds to g XOR d and drops out, the others receive the
//          adjacent run, so every run stays contiguous.
//            halving  d = 2: 0↔2  1↔3   keep half     d = 1: 0↔1  2↔3   keep own quarter
//            gather   (root 0)  d = 1: 1→0  3→2       d = 2: 2→0 (b2–b3)
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs hands its vector to its odd partner first; if the root is such a rank, the
//          parts gather at its partner's member, except that the two halves of the last step
//          go straight to the root.
// Cost:    2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (+ fold for p not a power of two): the fold costs
//          2α + nβ + nγ, and α + n/2·β more when the root sits out.
// Order:   halving pairs by distance, not rank order: commutative ops only.
// Limits:  none. The vector is cut into pof2 parts (block_partition); with fewer elements than
//          that some are empty and travel as empty messages.
// Memory:  the root accumulates in recv; other group members in one vector. Incoming runs of
//          the halving land in a quarter of a vector (half for a rank that carries a partner).
// Ref:     Rabenseifner, "Optimization of collective reduction operations" (2004); Thakur,
//          Rabenseifner, Gropp, "Optimization of collective communication operations in MPICH"
//          (2005).

#include <utility>

#include "algorithms/reduce/reduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_rabenseifner(const call& c) {
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, c.bytes(c.count));
    return;
  }
  const pof2_fold fold(c.rank(), c.size()), at_root(c.root, c.size());
  const block_partition parts(c.count, fold.pof2);
  const bool is_root = c.rank() == c.root;
  scratch own_acc = is_root || fold.sits_out() ? nullptr : make_scratch(c.bytes(c.count));
  std::byte* acc = is_root ? c.recv : own_acc.get();
  reduce_scatter_recursive_halving_blocks(c.net, fold, halving_order::far_first, c.send, acc, parts,
                                          c.elem.size, *c.op);

  // The member the parts gather at: the root's own, or that of the partner carrying it.
  const int top = at_root.sits_out() ? pof2_fold(at_root.partner, c.size()).group_rank : at_root.group_rank;
  const int half = fold.pof2 / 2;
  const auto run = [&](int first_part, int n) {
    return std::pair{acc + c.bytes(parts.offset(first_part)), c.bytes(parts.length(first_part, n))};
  };
  if (fold.sits_out()) {
    if (!is_root) return;
    for (int g : {top, top ^ half}) {
      const auto [where, bytes] = run(g & -half, half);
      c.net.recv(fold.rank_of(g), where, bytes);
    }
    return;
  }
  const int me = fold.group_rank;
  for (int d = 1; d < fold.pof2; d *= 2) {
    const bool straight_to_root = d == half && at_root.sits_out();
    if (((me ^ top) & d) != 0 || straight_to_root) {
      const auto [where, bytes] = run(me & -d, d);
      c.net.send(straight_to_root ? c.root : fold.rank_of(me ^ d), where, bytes);
      return;
    }
    const auto [where, bytes] = run((me ^ d) & -d, d);
    c.net.recv(fold.rank_of(me ^ d), where, bytes);
  }
}

}  // namespace collectives::detail
