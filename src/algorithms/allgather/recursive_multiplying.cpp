// SPDX-License-Identifier: BSD-3-Clause
// allgather_recursive_multiplying — recursive doubling of radix k (a power of two, default 4):
// each step a rank swaps everything gathered so far with the k − 1 other members of its group of
// k, so the gathered run multiplies by k: ⌈log_k p⌉ steps instead of log₂ p.
//
// Steps:   over the power-of-two group (pof2_fold), with d = 1, k, k², …: member g's group is
//          the k members g XOR j·d (j = 0 … k − 1), each holding an aligned run of d members'
//          blocks next to the others'; g sends its run to the other k − 1 and receives theirs
//          in place. Where log₂ pof2 is not a multiple of log₂ k the last step has a smaller
//          group, pof2 / d. 16 ranks, k = 4:
//            d = 1: 0, 1, 2, 3 ↔ one another, …, 12–15        ranks 0–3 hold b0–b3, …
//            d = 4: 0, 4, 8, 12 ↔ one another, …, 3, 7, 11, 15  every rank holds b0–b15
//          Non-power-of-two p = pof2 + rem: the even rank of each of the first rem pairs gives
//          its block to its odd partner first and receives the whole result from it last.
// Cost:    below E ⌈log_k p⌉α + (p−1)/p·nβ, above (k−1)⌈log_k p⌉α + (p−1)/p·nβ
//          (+ 2α + (1+1/p)nβ fold), n the whole result, p read as pof2 in the logarithm.
//          Below E a step's k − 1 sends leave together and their latencies overlap; every
//          rank sends and receives (p−1)/p·n in all, as in recursive doubling.
// Transport: below E every send of a step goes before any receive (exchange_with_peers); above
//          E the k − 1 exchanges of a step are pairings (XOR j·d), one after the other, which
//          blocking sends cannot deadlock: then it pays more latencies than recursive doubling.
// Order:   no reduction.
// Limits:  k a power of two, 2 ≤ k ≤ p (the call's radix).
// Memory:  the step's k − 1 peers (a vector of k − 1 entries).
//          Runs travel straight between receive buffers.
// Ref:     Wilkins, Wang, Liu, Pham, Guo, Thakur, Dinda, Hardavellas, "Generalized Collective
//          Algorithms for the Exascale Era", IEEE CLUSTER 2023; MPICH allgather recexch (radix k).

#include <algorithm>
#include <vector>

#include "algorithms/allgather/allgather.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgather_recursive_multiplying(const call& c) {
  allgather_folded(c, [](const call& c, const pof2_fold& fold) {
    const int radix = c.radix;
    const int p = c.size();
    const block_partition blocks(c.count * static_cast<std::size_t>(p), p);
    // Member j's blocks start at byte at(j); runs of d members: [j, j + d).
    const auto at = [&](int j) { return blocks.offset(fold.first_block_of(j, p)) * c.elem.size; };
    const auto run = [&](int j, int d) {
      const int b = fold.first_block_of(j, p);
      return block_range{b, fold.first_block_of(j + d, p) - b};
    };
    const int g = fold.group_rank;
    std::vector<step_peer> peers(radix - 1);
    for (int d = 1; d < fold.pof2;) {
      const int k = std::min(radix, fold.pof2 / d);
      const int own = g / d % k, mine = g / d * d;
      for (int j = 1; j < k; ++j) {
        const int shift = ((own ^ j) - own) * d, theirs = mine + shift, peer = fold.rank_of(g + shift);
        peers[j - 1] = {peer,         peer,          c.recv + at(theirs), at(theirs + d) - at(theirs),
                        run(mine, d), run(theirs, d)};
      }
      exchange_with_peers(c.net, std::span(peers.data(), k - 1), c.recv + at(mine), at(mine + d) - at(mine),
                          p);
      d *= k;
    }
  });
}

}  // namespace collectives::detail
