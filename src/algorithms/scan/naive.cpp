// SPDX-License-Identifier: BSD-3-Clause
// scan_naive — a chain: each rank receives the prefix of the ranks below it, folds in its own
// vector and passes the result on to the next rank.
//
// Steps:   rank 0's result is x0; it sends it to rank 1. Rank r > 0 receives x0 ∘ … ∘ x(r−1)
//          from rank r−1, computes x0 ∘ … ∘ xr = received ∘ xr in recv, and sends it to rank r+1
//          unless it is the last rank. 4 ranks (xa..b = xa ∘ … ∘ xb):
//            0 → 1  x0;   1 → 2  x0..1;   2 → 3  x0..2
// Cost:    (p−1)·(α + nβ + nγ): the last rank waits for the whole chain.
// Order:   exact rank order (the lower ranks' prefix is always the left operand): correct for
//          non-commutative ops.
// Limits:  none. In place (send == recv): the received prefix is folded into the buffer that
//          already holds xr.
// Memory:  one n-byte receive block on ranks > 0.
// Ref:     the textbook linear scan; Open MPI's scan "linear".

#include "algorithms/scan/scan.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void scan_naive(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  copy_bytes(c.recv, c.send, bytes);
  if (c.size() == 1) return;
  if (c.rank() > 0) {
    scratch received = make_scratch(bytes);
    recv_reduce(c.net, c.rank() - 1, c.recv, received.get(), c.count, c.elem.size, *c.op, peer_side::lower);
  }
  if (c.rank() + 1 < c.size()) c.net.send(c.rank() + 1, c.recv, bytes);
}

}  // namespace collectives::detail
