// SPDX-License-Identifier: BSD-3-Clause
// exscan_naive — a chain: each rank receives the prefix of the ranks below it (its result) and
// passes that prefix with its own vector folded in on to the next rank.
//
// Steps:   rank 0 sends x0 to rank 1 and leaves its recv untouched. Rank r > 0 receives
//          x0 ∘ … ∘ x(r−1) from rank r−1 into recv (its result) and, unless it is the last rank,
//          sends recv ∘ xr to rank r+1. 4 ranks (xa..b = xa ∘ … ∘ xb):
//            0 → 1  x0;   1 → 2  x0..1;   2 → 3  x0..2
// Cost:    (p−1)·(α + nβ) + (p−2)·nγ: the last rank waits for the whole chain.
// Order:   exact rank order (the lower ranks' prefix is always the left operand): correct for
//          non-commutative ops. No identity element: rank 1's result is x0 as received.
// Limits:  none. In place (send == recv): xr is copied aside before the prefix lands on it.
// Memory:  one n-byte block on the inner ranks (0 < r < p−1), where recv ∘ xr is formed.
// Ref:     the textbook linear exclusive scan; Open MPI's exscan "linear".

#include "algorithms/exscan/exscan.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void exscan_naive(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0 || c.size() == 1) return;
  const int rank = c.rank(), last = c.size() - 1;
  if (rank == 0) {
    c.net.send(1, c.send, bytes);
    return;
  }
  if (rank == last) {
    c.net.recv(rank - 1, c.recv, bytes);
    return;
  }
  // xr first: in place, the received prefix overwrites it.
  scratch onward = make_scratch(bytes);
  copy_bytes(onward.get(), c.send, bytes);
  c.net.recv(rank - 1, c.recv, bytes);
  combine(*c.op, c.recv, onward.get(), c.count);
  c.net.send(rank + 1, onward.get(), bytes);
}

}  // namespace collectives::detail
