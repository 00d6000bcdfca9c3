// SPDX-License-Identifier: BSD-3-Clause
// scatter_naive — the root sends block i of its buffer to rank i, one rank after the other.
//
// Steps:   root copies its own block, then sends block r to each rank r ≠ root in rank order;
//          every other rank receives once from the root.
// Cost:    (p−1)α + (p−1)/p·nβ, n the whole array at the root.
// Order:   no reduction.
// Limits:  none.
// Memory:  none extra.
// Ref:     the textbook linear scatter.

#include "algorithms/scatter/scatter.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void scatter_naive(const call& c) {
  if (c.count == 0) return;
  if (c.rank() != c.root) {
    c.net.recv(c.root, c.recv, c.bytes(c.count));
    return;
  }
  for (int r = 0; r < c.size(); ++r) {
    if (r == c.root)
      copy_bytes(c.recv, c.block(c.send, r), c.bytes(c.count));
    else
      c.net.send(r, c.block(c.send, r), c.bytes(c.count));
  }
}

}  // namespace collectives::detail
