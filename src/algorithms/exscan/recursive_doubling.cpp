// SPDX-License-Identifier: BSD-3-Clause
// exscan_recursive_doubling — exchange a running partial reduction with the rank at distance
// 1, 2, 4, …, as scan_recursive_doubling does, but fold into recv only what comes from below:
// after ⌈log p⌉ steps rank r holds x0 ∘ … ∘ x(r−1).
//
// Steps:   each rank keeps `partial` (the reduction of the aligned run of ranks it has heard
//          from, itself included) and, once something has come from below, its result in recv.
//          With d = 1, 2, …, rank r swaps `partial` with r XOR d when that rank exists. A
//          partner below contributes to partial (received ∘ partial) and to recv: the first
//          such contribution becomes recv, later ones fold in (received ∘ recv), so no
//          identity element is needed. A partner above contributes to partial only
//          (partial ∘ received). Rank 0 never has a partner below, so its recv is never written.
//          4 ranks (xa..b = xa ∘ … ∘ xb; – = not written):
//            d = 1: 0↔1  2↔3    recv: – x0 – x2                partial: x0..1 x0..1 x2..3 x2..3
//            d = 2: 0↔2  1↔3    recv: – x0 x0..1 x0..2
//          The last step's partial is never sent again, so it is not computed. Nothing is
//          copied where it can be avoided: partial is sent straight from the input until a
//          partner changes it, and the first contribution from below lands in recv itself.
// Cost:    ⌈log p⌉(α + nβ) + (2⌈log p⌉ − 2)nγ, any p without a fold: the reductions at most, plus,
//          from p = 3 on, one n-byte copy of the input at a rank whose first partner lies below
//          (partial and recv both need it).
// Order:   exact rank order: every operand is a contiguous run of ranks, the lower run on the
//          left. Correct for non-commutative ops.
// Limits:  none; any p. In place (send == recv): partial is copied from send before anything is
//          received, and recv is written only after that.
// Memory:  up to two n-byte blocks (partial, once it differs from the input, and the one
//          received into; they swap roles instead of being copied).
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005); MPICH's MPIR_Exscan_intra_recursive_doubling.

#include "algorithms/exscan/exscan.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void exscan_recursive_doubling(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  const int p = c.size(), rank = c.rank();
  if (c.count == 0 || p == 1) return;
  scratch first = make_scratch(bytes), second = make_scratch(bytes);
  // partial is read-only while it is the input; it lives in scratch once a partner changed it.
  const std::byte* partial = c.send;
  std::byte* own_partial = nullptr;
  std::byte* incoming = first.get();
  const auto spare = [&] { return own_partial == first.get() ? second.get() : first.get(); };
  if (c.send == c.recv) {  // in place: recv will be written, so the input moves to scratch first
    own_partial = first.get();
    copy_bytes(own_partial, c.send, bytes);
    partial = own_partial;
    incoming = second.get();
  }
  bool have_result = false;  // whether recv holds anything yet: there is no identity to start from
  for (int d = 1; d < p; d *= 2) {
    const int peer = rank ^ d;
    if (peer >= p) continue;
    const bool partial_needed = 2 * d < p;
    if (peer < rank) {
      // The first contribution from below is recv's value: it lands there directly.
      std::byte* landing = have_result ? incoming : c.recv;
      c.net.exchange(peer, partial, bytes, peer, landing, bytes);
      if (partial_needed) {
        if (!own_partial) {
          own_partial = spare();
          copy_bytes(own_partial, partial, bytes);
          partial = own_partial;
          if (incoming == own_partial) incoming = spare();
        }
        combine(*c.op, landing, own_partial, c.count);
      }
      if (have_result) combine(*c.op, incoming, c.recv, c.count);
      have_result = true;
    } else {
      c.net.exchange(peer, partial, bytes, peer, incoming, bytes);
      if (!partial_needed) continue;
      // partial ∘ received, computed where the upper operand lies, which becomes partial.
      combine(*c.op, partial, incoming, c.count);
      partial = own_partial = incoming;
      incoming = spare();
    }
  }
}

}  // namespace collectives::detail
