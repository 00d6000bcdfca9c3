// exscan_recursive_doubling — exchange a running partial reduction with the rank at distance
// 1, 2, 4, …, as scan_recursive_doubling does, but fold into recv only what comes from below:
// after ⌈log p⌉ steps rank r holds x0 ∘ … ∘ x(r−1).
//
// Steps:   each rank keeps `partial` (the reduction of the aligned run of ranks it has heard
//          from, itself included) and, once something has come from below, its result in recv.
//          With d = 1, 2, …, rank r swaps `partial` with r XOR d when that rank exists. A
//          partner below contributes to partial (received ∘ partial) and to recv: the first
//          such contribution is copied into recv, later ones fold in (received ∘ recv), so no
//          identity element is needed. A partner above contributes to partial only
//          (partial ∘ received). Rank 0 never has a partner below, so its recv is never written.
//          4 ranks (xa..b = xa ∘ … ∘ xb; – = not written):
//            d = 1: 0↔1  2↔3    recv: – x0 – x2                partial: x0..1 x0..1 x2..3 x2..3
//            d = 2: 0↔2  1↔3    recv: – x0 x0..1 x0..2
//          The last step's partial is never sent again, so it is not computed.
// Cost:    ⌈log p⌉·(α + nβ) + up to (2⌈log p⌉ − 2)·nγ, plus one n-byte copy into recv.
// Order:   exact rank order: every operand is a contiguous run of ranks, the lower run on the
//          left. Correct for non-commutative ops.
// Limits:  none; any p. In place (send == recv): partial is copied from send before anything is
//          received, and recv is written only after that.
// Memory:  two n-byte blocks (partial and the one received into; they swap roles instead of
//          being copied).
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005); MPICH's MPIR_Exscan_intra_recursive_doubling.

#include <utility>

#include "algorithms/exscan/exscan.hpp"
#include "core/primitives.hpp"
#include "core/scratch.hpp"

namespace collectives::detail {

void exscan_recursive_doubling(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  const int p = c.size(), rank = c.rank();
  if (c.count == 0 || p == 1) return;
  scratch first = make_scratch(bytes), second = make_scratch(bytes);
  std::byte* partial = first.get();
  std::byte* incoming = second.get();
  copy_bytes(partial, c.send, bytes);
  bool have_result = false;  // whether recv holds anything yet: there is no identity to start from
  for (int d = 1; d < p; d *= 2) {
    const int peer = rank ^ d;
    if (peer >= p) continue;
    c.net.exchange(peer, partial, bytes, peer, incoming, bytes);
    const bool partial_needed = 2 * d < p;
    if (peer < rank) {
      if (partial_needed) combine(*c.op, incoming, partial, c.count);
      if (have_result)
        combine(*c.op, incoming, c.recv, c.count);
      else
        copy_bytes(c.recv, incoming, bytes);
      have_result = true;
    } else if (partial_needed) {
      // partial ∘ received, computed where the upper operand lies, which becomes partial.
      combine(*c.op, partial, incoming, c.count);
      std::swap(partial, incoming);
    }
  }
}

}  // namespace collectives::detail
