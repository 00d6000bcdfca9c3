// SPDX-License-Identifier: BSD-3-Clause
// gather_naive — the root receives every rank's block, one rank after the other.
//
// Steps:   every rank ≠ root sends its block to the root; the root copies its own block and
//          receives block r from each rank r ≠ root in rank order.
// Cost:    (p−1)α + (p−1)/p·nβ, n the whole array at the root.
// Order:   no reduction.
// Limits:  none.
// Memory:  none extra.
// Ref:     the textbook linear gather.

#include "algorithms/gather/gather.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void gather_naive(const call& c) {
  if (c.count == 0) return;
  if (c.rank() != c.root) {
    c.net.send(c.root, c.send, c.bytes(c.count));
    return;
  }
  for (int r = 0; r < c.size(); ++r) {
    if (r == c.root)
      copy_bytes(c.block(c.recv, r), c.send, c.bytes(c.count));
    else
      c.net.recv(r, c.block(c.recv, r), c.bytes(c.count));
  }
}

}  // namespace collectives::detail
