// SPDX-License-Identifier: BSD-3-Clause
// scan_recursive_doubling — exchange a running partial reduction with the rank at distance
// 1, 2, 4, …: after ⌈log p⌉ steps every rank holds the reduction of all ranks up to itself.
//
// Steps:   each rank keeps `partial` (the reduction of the aligned run of ranks it has heard
//          from, itself included) and its result in recv (the part of that run up to itself).
//          With d = 1, 2, …, rank r swaps `partial` with r XOR d when that rank exists. A
//          partner below contributes to both (received ∘ partial, received ∘ recv); a partner
//          above only to partial (partial ∘ received). Ranks past p−1 simply do not exist, so any
//          p works without a fold. 4 ranks (xa..b = xa ∘ … ∘ xb):
//            d = 1: 0↔1  2↔3    recv: x0 x0..1 x2 x2..3        partial: x0..1 x0..1 x2..3 x2..3
//            d = 2: 0↔2  1↔3    recv: x0 x0..1 x0..2 x0..3     (partial: x0..3 everywhere)
//          The last step's partial is never sent again, so it is not computed. No copy is made
//          of partial: it is this rank's input until a partner changes it, and equals recv after
//          a partner below did so until a partner above does (then it moves to scratch).
// Cost:    ⌈log p⌉(α + nβ) + (2⌈log p⌉ − 1)nγ, any p without a fold: the reductions at most, at a
//          rank whose partners are all below it (it folds every step into both buffers).
// Order:   exact rank order: every operand is a contiguous run of ranks, the lower run on the
//          left. Correct for non-commutative ops.
// Limits:  none; any p. In place (send == recv): partial is recv itself until a partner above
//          moves it to scratch.
// Memory:  up to two n-byte blocks (partial, once it differs from the input and from recv, and
//          the one received into; they swap roles instead of being copied).
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005); MPICH's MPIR_Scan_intra_recursive_doubling.

#include "algorithms/scan/scan.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void scan_recursive_doubling(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  copy_bytes(c.recv, c.send, bytes);
  const int p = c.size(), rank = c.rank();
  if (p == 1) return;
  scratch first = make_scratch(bytes), second = make_scratch(bytes);
  // partial is read-only while it is the input or recv; a partner above moves it to scratch.
  const std::byte* partial = c.send;
  std::byte* own_partial = nullptr;  // partial when it lives in scratch
  std::byte* incoming = first.get();
  for (int d = 1; d < p; d *= 2) {
    const int peer = rank ^ d;
    if (peer >= p) continue;
    c.net.exchange(peer, partial, bytes, peer, incoming, bytes);
    const bool partial_needed = 2 * d < p;
    if (peer < rank) {
      combine(*c.op, incoming, c.recv, c.count);
      if (!partial_needed) continue;
      if (own_partial)
        combine(*c.op, incoming, own_partial, c.count);
      else
        partial = c.recv;  // received ∘ (input or recv) = received ∘ recv, just computed
    } else if (partial_needed) {
      // partial ∘ received, computed where the upper operand lies, which becomes partial.
      combine(*c.op, partial, incoming, c.count);
      partial = own_partial = incoming;
      incoming = incoming == first.get() ? second.get() : first.get();
    }
  }
}

}  // namespace collectives::detail
