// SPDX-License-Identifier: BSD-3-Clause
// allreduce_recursive_doubling — exchange the whole vector with a partner at distance 1, then
// 2, 4, …, each pair combining lower ∘ upper: after log p steps every rank has the result.
//
// Steps:   with d = 1, 2, …, p/2 rank r swaps its running result with r XOR d; both partners
//          compute (lower half's) ∘ (upper half's), so each holds the reduction of the aligned
//          run of 2d ranks around it.
//            d = 1: 0↔1  2↔3    ranks 0,1: x0∘x1          ranks 2,3: x2∘x3
//            d = 2: 0↔2  1↔3    every rank: (x0∘x1)∘(x2∘x3)
//          Non-power-of-two p = pof2 + rem (pof2_fold): the even rank of each of the first rem
//          pairs hands its vector to its odd partner, which folds it in on the left and stands
//          for both ranks, and gets the result back at the end.
// Cost:    log p·(α + nβ + nγ) (+ 2(α + nβ) + nγ fold), the fold in and out for p not a power of
//          two.
// Order:   keeps rank order (runs are contiguous, lower on the left): correct for
//          non-commutative ops. Both partners combine the same operands in the same order, so
//          every rank holds identical bits.
// Limits:  none.
// Memory:  one vector, where the partner's result lands; the result alternates between it and
//          recv instead of being copied back each step, and starts in whichever makes it end in
//          recv, so the only copy is the input's, made by the upper rank of the first step after
//          it has sent the input itself (the lower rank combines into what it receives).
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005).

#include <bit>
#include <utility>

#include "algorithms/allreduce/allreduce.hpp"
#include "kit/pof2_fold.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void allreduce_recursive_doubling(const call& c) {
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
  // The result moves to the other buffer at every step whose partner lies above (one per zero bit
  // of the group rank): with an odd number of moves it starts in scratch, so it ends in recv.
  scratch other = make_scratch(bytes);
  const int moves = std::countr_zero(static_cast<unsigned>(fold.pof2)) -
                    std::popcount(static_cast<unsigned>(fold.group_rank));
  std::byte* result = moves % 2 == 0 ? c.recv : other.get();
  std::byte* incoming = moves % 2 == 0 ? other.get() : c.recv;
  // This rank's running result: the caller's input itself until the first combine, so the first
  // step sends the input untouched rather than a copy of it (a buffer just written costs the
  // transport more to send than its copy takes: docs/measurements/2026-11-28-figures-from-comments.md).
  // Copied first when the fold combines into it, or when in place it is where the partner's lands.
  const std::byte* mine = c.send;
  if (fold.carries_partner() || mine == incoming) {
    copy_bytes(result, c.send, bytes);
    mine = result;
  }
  if (fold.carries_partner())
    recv_reduce(c.net, fold.partner, result, incoming, c.count, c.elem.size, *c.op, peer_side::lower);
  for (int d = 1; d < fold.pof2; d *= 2) {
    const int peer = fold.group_rank ^ d;
    c.net.exchange(fold.rank_of(peer), mine, bytes, fold.rank_of(peer), incoming, bytes);
    // lower ∘ upper, computed where the upper operand lies: on the lower rank that is the
    // incoming buffer, which then holds the result; the upper rank first copies its input into
    // place if it still has it only in the caller's buffer (copy_bytes skips a copy onto itself).
    if (peer < fold.group_rank) {
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
