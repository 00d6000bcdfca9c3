// SPDX-License-Identifier: BSD-3-Clause
// allgather_recursive_doubling — exchange everything gathered so far with a partner at distance
// 1, then 2, 4, …: the gathered run doubles each step.
//
// Steps:   with d = 1, 2, …, p/2 rank r pairs with r XOR d and swaps the aligned run of d
//          blocks it holds for the partner's adjacent run.
//            d = 1: 0↔1  2↔3    ranks 0,1 hold b0–b1; ranks 2,3 hold b2–b3
//            d = 2: 0↔2  1↔3    every rank holds b0–b3
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs gives its block to its odd partner first, which then stands for both blocks,
//          and receives the whole result from it last.
// Cost:    log p·α + (p−1)/p·nβ (+ 2α + (1+1/p)nβ fold), n the whole result. Non-power-of-two: the
//          fold hands in one block (n/p) and hands back the whole result (n).
// Order:   no reduction.
// Limits:  none; allgather_recursive_doubling_blocks also takes uneven, even empty, parts.
// Memory:  none extra: runs travel straight between receive buffers.
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005).

#include "algorithms/allgather/allgather.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgather_recursive_doubling_blocks(const transport& net, const pof2_fold& fold, halving_order order,
                                         std::byte* buf, const block_partition& blocks,
                                         std::size_t elem_size) {
  if (fold.sits_out()) return;
  // Byte offset of part j: parts [j, j + d) hold bytes [at(j), at(j + d)).
  const auto at = [&](int j) { return blocks.offset(fold.first_block_of(j, blocks.parts())) * elem_size; };
  const int own = fold.part_of(fold.group_rank, order);
  for (int d = 1; d < fold.pof2; d *= 2) {
    // Swap the aligned run of d parts holding this rank's part for the run next to it, held by the
    // member that ends the halving in it: at distance d in the group (far_first) or pof2/2d
    // (near_first).
    const int peer_rank = fold.rank_of(fold.part_of(own ^ d, order)), mine = own & -d,
              theirs = (own ^ d) & -d;
    const auto run = [&](int j) {
      const int b = fold.first_block_of(j, blocks.parts());
      return block_range{b, fold.first_block_of(j + d, blocks.parts()) - b};
    };
    const trace_blocks mark(run(mine), run(theirs), blocks.parts());
    net.exchange(peer_rank, buf + at(mine), at(mine + d) - at(mine), peer_rank, buf + at(theirs),
                 at(theirs + d) - at(theirs));
  }
}

void allgather_folded(const call& c, void (*core)(const call& c, const pof2_fold& fold)) {
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, c.bytes(c.count));
    return;
  }
  const std::size_t total = c.count * static_cast<std::size_t>(c.size());
  const pof2_fold fold(c.rank(), c.size());
  const int p = c.size();
  if (fold.sits_out()) {
    const trace_blocks mark({c.rank(), 1}, {0, p}, p);
    c.net.send(fold.partner, c.send, c.bytes(c.count));
    c.net.recv(fold.partner, c.recv, c.bytes(total));
    return;
  }
  // Fold in: a member's part is its own block, preceded by its partner's if it carries one.
  copy_bytes(c.block(c.recv, c.rank()), c.send, c.bytes(c.count));
  if (fold.carries_partner()) {
    const trace_blocks mark({}, {fold.partner, 1}, p);
    c.net.recv(fold.partner, c.block(c.recv, fold.partner), c.bytes(c.count));
  }
  core(c, fold);
  const trace_blocks mark({0, p}, {}, p);
  if (fold.carries_partner()) c.net.send(fold.partner, c.recv, c.bytes(total));
}

void allgather_recursive_doubling(const call& c) {
  allgather_folded(c, [](const call& c, const pof2_fold& fold) {
    allgather_recursive_doubling_blocks(
        c.net, fold, halving_order::far_first, c.recv,
        block_partition(c.count * static_cast<std::size_t>(c.size()), c.size()), c.elem.size);
  });
}

}  // namespace collectives::detail
