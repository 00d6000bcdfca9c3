// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Non-power-of-two folding, shared by every algorithm that needs a power-of-two group
// (recursive doubling and halving, Rabenseifner): with p = pof2 + rem, the first 2·rem ranks
// pair up as (2i, 2i+1); the even one hands its data to the odd one and sits out the core
// phase, and gets the result back at the end. The pof2 remaining ranks are renumbered
// 0 … pof2−1 in the order of their original ranks, and each stands for a contiguous range of
// original ranks (one or two), so rank order is kept for non-commutative ops.
//
//   p = 6 (pof2 = 4, rem = 2):  rank   0  1  2  3  4  5
//                               group  -  0  -  1  2  3

#include <bit>

namespace collectives::detail {

/// The order of a recursive halving's distances among the power-of-two group; the recursive
/// doubling that undoes it runs them in reverse. Either way the parts split in half at every
/// step, the vector's halves first; the order only decides who pairs with whom.
enum class halving_order {
  /// Distance pof2/2 first, 1 last: member g ends with part g, the parts in rank order (what
  /// reduce_scatter and allgather, whose blocks belong to ranks, need).
  far_first,
  /// Distance 1 first, as MPICH's all-reduce: member g ends with part bit_reversed(g). The
  /// largest step (half the vector) pairs neighbours, which hosts of consecutive ranks keep
  /// within one host; only the later, smaller steps cross hosts.
  near_first,
};

struct pof2_fold {
  pof2_fold(int rank, int p)
      : pof2(static_cast<int>(std::bit_floor(static_cast<unsigned>(p)))),
        rem(p - pof2),
        group_rank(rank < 2 * rem ? (rank % 2 == 0 ? -1 : rank / 2) : rank - rem),
        partner(rank < 2 * rem ? (rank % 2 == 0 ? rank + 1 : rank - 1) : -1) {}

  /// True when this rank hands its data to `partner` and sits out the power-of-two phase.
  bool sits_out() const { return group_rank < 0; }
  /// True when this rank also carries the data of the folded-out `partner` (the lower rank).
  bool carries_partner() const { return partner >= 0 && group_rank >= 0; }
  /// The original rank of group member `g`.
  int rank_of(int g) const { return g < rem ? 2 * g + 1 : g + rem; }
  /// The first original rank whose data group member `g` carries.
  int first_rank_of(int g) const { return g < rem ? 2 * g : g + rem; }
  /// The first block of group member `g`'s part of a vector cut into `parts` blocks: either one
  /// block per member (parts == pof2: balanced, for allreduce and reduce) or one per original
  /// rank (parts == pof2 + rem: a member that carries a partner holds both ranks' blocks, for
  /// reduce_scatter and allgather, whose blocks belong to ranks). g == pof2 gives `parts`.
  int first_block_of(int g, int parts) const { return parts == pof2 ? g : first_rank_of(g); }
  /// The part group member `g` ends with in a halving of `order`: g, or g's log₂ pof2 bits in
  /// reverse (near_first, e.g. pof2 = 8: member 1 = 001 ends with part 4 = 100). Its own inverse:
  /// part_of(j, order) is also the member that ends with part j.
  int part_of(int g, halving_order order) const {
    if (order == halving_order::far_first) return g;
    int reversed = 0;
    for (int bit = 1; bit < pof2; bit *= 2) reversed = 2 * reversed + ((g & bit) != 0 ? 1 : 0);
    return reversed;
  }

  int pof2;        ///< the largest power of two ≤ p
  int rem;         ///< p − pof2
  int group_rank;  ///< this rank's number in the power-of-two group, −1 if it sits out
  int partner;     ///< the other rank of this rank's pair, −1 if it has none
};

}  // namespace collectives::detail
