// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatter_recursive_multiplying — recursive halving of radix k (a power of two, default
// 4): each step a rank splits the run of blocks it still reduces k ways, keeps its own piece and
// hands each other piece to the member of its group of k that ends in it, so the run shrinks k
// times a step: ⌈log_k p⌉ steps instead of log₂ p.
//
// Steps:   over the power-of-two group (pof2_fold), the run of D parts member g reduces starts
//          as all pof2 and, at each step, splits into k pieces of d = D/k (k = min(radix, D), so
//          the last step is smaller where log₂ pof2 is not a multiple of log₂ k). g's group is
//          the k members whose piece index (g / d mod k) is g's XOR j (j = 1 … k − 1), each at
//          g's offset in its piece; g sends each its sums of that member's piece and adds the
//          k − 1 sums of its own piece it receives. 16 ranks, k = 4:
//            d = 4: 0, 4, 8, 12 ↔ one another, …   rank 0 keeps b0–b3, rank 4 b4–b7, …
//            d = 1: 0, 1, 2, 3 ↔ one another, …    each keeps its own block: rank r holds b_r
//          Non-power-of-two p = pof2 + rem: the even rank of each of the first rem pairs hands
//          its whole vector to its odd partner first (in the first step's pieces) and gets its
//          block back at the end; the partner, standing for both ranks, reduces both blocks.
// Cost:    below E ⌈log_k p⌉α + (p−1)/p·n(β + γ), above (k−1)⌈log_k p⌉α + the same bytes (+
//          fold), n the whole vector, p read as pof2: every step sends and reduces (k−1)/k of
//          the run, as halving does over log₂ p steps. The fold costs (k + 1)α + n(β + γ) + n/p·β.
// Transport: below E every send of a step goes before any receive (exchange_with_peers, each
//          piece its own message); above E the k − 1 exchanges of a step are pairings (piece
//          index XOR j), one after the other in the order of j on every rank, which blocking
//          sends cannot deadlock.
// Order:   the pieces are combined by distance, not rank order: commutative ops only.
// Limits:  k a power of two, 2 ≤ k ≤ p (the call's radix); counts below the group size leave
//          empty pieces, which travel as empty messages.
// Memory:  a p·n accumulator in which the reduced run shrinks, plus where the k − 1 incoming
//          pieces of a step land: (k − 1)/k of the vector at the first step.
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005), recursive halving; MPICH's reduce_scatter recexch (radix k).

#include <algorithm>
#include <span>
#include <vector>

#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_scatter_recursive_multiplying_blocks(const transport& net, const pof2_fold& fold, int radix,
                                                 const std::byte* in, std::byte* acc,
                                                 const block_partition& blocks, std::size_t elem_size,
                                                 const reduction& op) {
  const int parts = blocks.parts();
  // Element offset of member j's part, and the blocks of members [j, j + n).
  const auto first = [&](int j) { return blocks.offset(fold.first_block_of(j, parts)); };
  const auto run_blocks = [&](int j, int n) {
    const int b = fold.first_block_of(j, parts);
    return block_range{b, fold.first_block_of(j + n, parts) - b};
  };
  const int k0 = std::min(radix, fold.pof2), d0 = fold.pof2 / k0;
  if (fold.sits_out()) {
    // In the first step's pieces, so that the partner folds each in as a piece lands.
    for (int i = 0; i < k0; ++i) {
      const trace_blocks mark(run_blocks(i * d0, d0), {}, parts);
      net.send(fold.partner, in + first(i * d0) * elem_size,
               (first((i + 1) * d0) - first(i * d0)) * elem_size);
    }
    return;
  }
  // The pieces of later steps lie within the first step's, so the longest of those bounds every
  // landing.
  std::size_t longest = 0;
  for (int i = 0; i < k0; ++i) longest = std::max(longest, first((i + 1) * d0) - first(i * d0));
  const scratch landing = make_scratch(longest * elem_size * static_cast<std::size_t>(std::max(k0 - 1, 1)));
  // Where this rank's sums of the parts still being reduced lie: `in` until the first sums form
  // in `acc`.
  const std::byte* mine = in;
  if (fold.carries_partner()) {
    for (int i = 0; i < k0; ++i) {
      const std::size_t from = first(i * d0), n = first((i + 1) * d0) - from;
      const trace_blocks mark({}, run_blocks(i * d0, d0), parts);
      net.recv(fold.partner, landing.get(), n * elem_size);
      if (in != acc) copy_bytes(acc + from * elem_size, in + from * elem_size, n * elem_size);
      combine(op, landing.get(), acc + from * elem_size, n);
    }
    mine = acc;
  }
  const int g = fold.group_rank;
  std::vector<step_peer> peers;
  peers.reserve(static_cast<std::size_t>(radix - 1));
  for (int run = fold.pof2; run > 1;) {
    const int k = std::min(radix, run), d = run / k;
    const int start = g & -run, own = g / d % k;
    const std::size_t from = first(start + own * d), n = first(start + (own + 1) * d) - from;
    peers.clear();
    for (int j = 1; j < k; ++j) {
      const int piece = own ^ j, peer = fold.rank_of(g + (piece - own) * d);
      const std::size_t piece_from = first(start + piece * d);
      peers.push_back({.to = peer,
                       .from = peer,
                       .in = landing.get() + (j - 1) * n * elem_size,
                       .in_bytes = n * elem_size,
                       .sent = run_blocks(start + piece * d, d),
                       .received = run_blocks(start + own * d, d),
                       .out = mine + piece_from * elem_size,
                       .out_bytes = (first(start + (piece + 1) * d) - piece_from) * elem_size});
    }
    exchange_with_peers(net, peers, parts);
    std::byte* sum = acc + from * elem_size;
    if (mine != acc) copy_bytes(sum, mine + from * elem_size, n * elem_size);
    for (int j = 1; j < k; ++j) combine(op, landing.get() + (j - 1) * n * elem_size, sum, n);
    mine = acc;
    run = d;
  }
}

void reduce_scatter_recursive_multiplying(const call& c) {
  reduce_scatter_folded(c, [](const call& c, const pof2_fold& fold, std::byte* acc) {
    reduce_scatter_recursive_multiplying_blocks(
        c.net, fold, c.radix, c.send, acc,
        block_partition(c.count * static_cast<std::size_t>(c.size()), c.size()), c.elem.size, *c.op);
  });
}

}  // namespace collectives::detail
