// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Swing's peers and its block map over a power-of-two group (De Sensi et al., NSDI 2024): at
// step s member g pairs with g + ρ(s) if g is even, g − ρ(s) if odd (mod pof2), ρ(s) = 1, −1, 3,
// −5, 11, … The sets of members each reaches in the remaining steps nest (a tree), so ordering
// the members by that tree puts every set on a contiguous run of positions: step s splits
// aligned runs of pof2/2^s positions in halves, and the partner's set is always the other half.
// The halves of the Swing algorithms (reduce_scatter_swing_blocks, allgather_swing_blocks) move
// position runs; the schedules test checks the property at every power of two up to 1024.
//
//   pof2 = 8:  member     0  1  2  3  4  5  6  7
//              position   0  4  6  1  2  7  5  3
//   step 0 (ρ = 1): 0↔1 (positions 0 and 4: the two halves), step 1 (ρ = −1): 0↔7 (0, 3), …

#include <algorithm>
#include <bit>
#include <cstddef>
#include <map>
#include <vector>

#include "kit/block_partition.hpp"
#include "kit/pof2_fold.hpp"

namespace collectives::detail {

/// ρ(s) = Σᵢ₌₀ˢ (−2)ⁱ.
inline int swing_rho(int s) {
  int sum = 0, term = 1;
  for (int i = 0; i <= s; ++i, term *= -2) sum += term;
  return sum;
}

/// Member g's partner at step s in a group of pof2 members.
inline int swing_peer(int g, int s, int pof2) {
  const int to = g % 2 == 0 ? g + swing_rho(s) : g - swing_rho(s);
  return ((to % pof2) + pof2) % pof2;
}

class swing_map {
 public:
  /// The map of a group of `pof2` members, a power of two: O(pof2·log pof2) time and ints.
  explicit swing_map(int pof2) : pof2_(pof2), steps_(std::countr_zero(static_cast<unsigned>(pof2))) {
    // label[g]: the least member of the set g reaches in steps s … steps−1, built from the last
    // step back; the bit of step s in g's position says whether the partner's set comes first.
    std::vector<int> label(static_cast<std::size_t>(pof2)), next(label.size());
    position_.assign(label.size(), 0);
    for (int g = 0; g < pof2; ++g) label[static_cast<std::size_t>(g)] = g;
    for (int s = steps_ - 1; s >= 0; --s) {
      for (int g = 0; g < pof2; ++g) {
        const int mine = label[static_cast<std::size_t>(g)],
                  theirs = label[static_cast<std::size_t>(peer(g, s))];
        if (mine > theirs) position_[static_cast<std::size_t>(g)] += pof2 >> (s + 1);
        next[static_cast<std::size_t>(g)] = std::min(mine, theirs);
      }
      label.swap(next);
    }
    member_.assign(label.size(), 0);
    for (int g = 0; g < pof2; ++g) member_[static_cast<std::size_t>(position(g))] = g;
  }

  /// Member g's partner at step s.
  int peer(int g, int s) const { return swing_peer(g, s, pof2_); }
  /// log₂ pof2.
  int steps() const { return steps_; }
  /// Where member g's part lies; g ends a Swing reduce-scatter holding it.
  int position(int g) const { return position_[static_cast<std::size_t>(g)]; }
  /// The member whose part lies at position x.
  int member(int x) const { return member_[static_cast<std::size_t>(x)]; }

 private:
  int pof2_;
  int steps_;
  std::vector<int> position_;
  std::vector<int> member_;
};

/// The map of a group of `pof2` members, built the first time this thread asks for that size and
/// kept: every call of a Swing or Bine algorithm needs it, and building it takes O(pof2·log pof2)
/// steps per call (at 1024 members, longer than a small message's latency). At most one map per
/// power of two, 2·pof2 ints each, per thread.
inline const swing_map& swing_map_of(int pof2) {
  thread_local std::map<int, swing_map> maps;
  auto found = maps.find(pof2);
  if (found == maps.end()) found = maps.emplace(pof2, swing_map(pof2)).first;
  return found->second;
}

/// The step at which member g receives its run in a Swing scatter from member `root` (−1 at the
/// root): at step s = 0 … log₂ pof2 − 1 every member already holding an aligned run of pof2/2^s
/// positions keeps the half with its own position and hands the other half to its partner, whose
/// position lies in it (the map's property). Followed from the root along g's runs: O(log pof2).
/// The scatter of broadcast_bine_bandwidth and, reversed, the gather of reduce_bine_bandwidth;
/// the schedules test checks that every member receives once, from a holder.
inline int swing_scatter_step(const swing_map& map, int g, int root) {
  const int pof2 = 1 << map.steps();
  int holder = root;
  for (int s = 0; s < map.steps() && holder != g; ++s)
    if (((map.position(g) ^ map.position(holder)) & (pof2 >> (s + 1))) != 0) {
      holder = map.peer(holder, s);
      if (holder == g) return s;
    }
  return -1;
}

/// The runs of a vector of `count` elements per original rank laid out in the map's order over
/// the group of `fold`: position x holds the blocks of member map.member(x), in rank order (two
/// for a member that carries a partner). What reduce_scatter_swing and allgather_swing move.
inline block_partition swing_rank_runs(const pof2_fold& fold, const swing_map& map, std::size_t count) {
  std::vector<std::size_t> lengths(static_cast<std::size_t>(fold.pof2));
  for (int x = 0; x < fold.pof2; ++x) {
    const int m = map.member(x);
    lengths[static_cast<std::size_t>(x)] =
        count * static_cast<std::size_t>(fold.first_rank_of(m + 1) - fold.first_rank_of(m));
  }
  return block_partition::of_lengths(lengths);
}

}  // namespace collectives::detail
