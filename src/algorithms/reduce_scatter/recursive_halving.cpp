// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatter_recursive_halving — exchange half of the vector with a partner at distance
// p/2, then half of what is left at distance p/4, …, until each rank holds only its own block.
//
// Steps:   with d = p/2, p/4, …, 1 rank r pairs with r XOR d; of the aligned run of 2d blocks it
//          still reduces, it keeps the d on its side, sends the other d and adds the partner's
//          sums of its own d.
//            d = 2: 0↔2  1↔3    ranks 0,1 keep b0–b1 and send b2–b3; ranks 2,3 the reverse
//            d = 1: 0↔1  2↔3    each keeps its own block: rank r holds b_r of all 4 ranks
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs hands its whole vector to its odd partner first and gets its block back at the
//          end; the partner, standing for both ranks, reduces both their blocks.
// Cost:    log p·α + (p−1)/p·n(β + γ) (+ fold), n the whole vector. Non-power-of-two: the fold
//          costs 3α + n(β + γ) + n/p·β (the vector travels as two halves).
// Order:   the halves are combined by distance, not rank order: commutative ops only.
// Limits:  none; counts below the group size leave empty parts, which travel as empty messages.
// Memory:  a p·n accumulator in which the reduced run shrinks, plus the landing of each incoming
//          run: a quarter of the vector, or half for a rank that carries a partner.
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005); Rabenseifner, "Optimization of collective reduction operations"
//          (2004).

#include <algorithm>

#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_scatter_recursive_halving_blocks(const transport& net, const pof2_fold& fold, halving_order order,
                                             const std::byte* in, std::byte* acc,
                                             const block_partition& blocks, std::size_t elem_size,
                                             const reduction& op) {
  // Element offset of part j, and length of the aligned run of d parts holding j.
  const auto first = [&](int j) { return blocks.offset(fold.first_block_of(j, blocks.parts())); };
  const auto run_length = [&](int j, int d) { return first((j & -d) + d) - first(j & -d); };
  const int half = fold.pof2 / 2;
  const std::size_t lower = first(half), upper = blocks.count() - lower;
  // The blocks of the aligned run of d parts holding j, for the trace.
  const auto run_blocks = [&](int j, int d) {
    const int b = fold.first_block_of(j & -d, blocks.parts());
    return block_range{b, fold.first_block_of((j & -d) + d, blocks.parts()) - b};
  };
  const block_range lower_half = run_blocks(0, half), upper_half = run_blocks(half, half);
  if (fold.sits_out()) {
    // Cut where the first halving step cuts, so an in-place partner lands it in half a vector.
    {
      const trace_blocks mark(lower_half, {}, blocks.parts());
      net.send(fold.partner, in, lower * elem_size);
    }
    const trace_blocks mark(upper_half, {}, blocks.parts());
    net.send(fold.partner, in + lower * elem_size, upper * elem_size);
    return;
  }
  // The part this rank ends with; the runs it keeps are the ones holding it.
  const int own = fold.part_of(fold.group_rank, order);
  // Where this rank's contribution to the parts still being reduced lies: `in` until the first
  // sums have been formed in `acc`. Until then an incoming run lands straight in `acc`, unless
  // this rank's own input sits there (in place). The first run to land in scratch is the
  // largest: a half, or a quarter when the first one lands straight in `acc`.
  const std::byte* mine = in;
  std::size_t landing_length = 0;
  if (in == acc || fold.carries_partner())
    landing_length = std::max(lower, upper);
  else if (half >= 2)
    landing_length = run_length(own, half / 2);
  scratch landing = make_scratch(landing_length * elem_size);
  // Receives elements [from, from + n) of a peer's sums and adds them to this rank's.
  const auto fold_in = [&](auto&& receive, std::size_t from, std::size_t n) {
    std::byte* sum = acc + from * elem_size;
    if (mine == acc) {
      receive(landing.get(), n * elem_size);
      combine(op, landing.get(), sum, n);
    } else {
      receive(sum, n * elem_size);
      combine(op, mine + from * elem_size, sum, n);
    }
  };

  if (fold.carries_partner()) {
    const auto from_partner = [&](std::byte* to, std::size_t bytes) { net.recv(fold.partner, to, bytes); };
    {
      const trace_blocks mark({}, lower_half, blocks.parts());
      fold_in(from_partner, 0, lower);
    }
    const trace_blocks mark({}, upper_half, blocks.parts());
    fold_in(from_partner, lower, upper);
    mine = acc;
  }
  for (int d = half; d >= 1; d /= 2) {
    // Keep the aligned run of d parts holding this rank's part, give the neighbouring run away to
    // the member that ends in it: at distance d in the group (far_first) or pof2/2d (near_first).
    const int give = (own ^ d) & -d, peer_rank = fold.rank_of(fold.part_of(own ^ d, order));
    const auto swap_with_peer = [&](std::byte* to, std::size_t bytes) {
      net.exchange(peer_rank, mine + first(give) * elem_size, run_length(give, d) * elem_size, peer_rank, to,
                   bytes);
    };
    const trace_blocks mark(run_blocks(give, d), run_blocks(own, d), blocks.parts());
    fold_in(swap_with_peer, first(own & -d), run_length(own, d));
    mine = acc;
  }
}

void reduce_scatter_folded(const call& c,
                           void (*core)(const call& c, const pof2_fold& fold, std::byte* acc)) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const pof2_fold fold(c.rank(), c.size());
  const std::size_t total = c.count * static_cast<std::size_t>(c.size());
  scratch acc = fold.sits_out() ? nullptr : make_scratch(c.bytes(total));
  core(c, fold, acc.get());
  // Unfold: a rank that carried its partner reduced both their blocks and hands back the partner's.
  const trace_blocks mark(fold.partner, c.rank(), c.size());
  if (fold.sits_out()) {
    c.net.recv(fold.partner, c.recv, bytes);
    return;
  }
  if (fold.carries_partner()) c.net.send(fold.partner, c.block(acc.get(), fold.partner), bytes);
  copy_bytes(c.recv, c.block(acc.get(), c.rank()), bytes);
}

void reduce_scatter_recursive_halving(const call& c) {
  reduce_scatter_folded(c, [](const call& c, const pof2_fold& fold, std::byte* acc) {
    reduce_scatter_recursive_halving_blocks(
        c.net, fold, halving_order::far_first, c.send, acc,
        block_partition(c.count * static_cast<std::size_t>(c.size()), c.size()), c.elem.size, *c.op);
  });
}

}  // namespace collectives::detail
