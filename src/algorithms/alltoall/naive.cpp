// SPDX-License-Identifier: BSD-3-Clause
// alltoall_naive — every pair of ranks exchanges its two blocks, peers taken in rank order.
//
// Steps:   rank r copies its own block, then for peer = 0, 1, …, p−1 (peer ≠ r) exchanges
//          block `peer` of send with block `peer` of recv. Every rank walks its peers in
//          increasing order, so the lexicographically first pending pair can always proceed:
//          no deadlock, but ranks may wait on each other (a chain of up to p−1 steps).
// Cost:    (p−1)(α + n/p·β) up to twice that on the critical path, n the whole array.
// Order:   no reduction.
// Limits:  none.
// Memory:  none extra.
// Ref:     the textbook "ordered exchanges" all-to-all.

#include "algorithms/alltoall/alltoall.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void alltoall_naive(const call& c) {
  if (c.count == 0) return;
  const std::size_t bytes = c.bytes(c.count);
  for (int peer = 0; peer < c.size(); ++peer) {
    if (peer == c.rank())
      copy_bytes(c.block(c.recv, peer), c.block(c.send, peer), bytes);
    else
      c.net.exchange(peer, c.block(c.send, peer), bytes, peer, c.block(c.recv, peer), bytes);
  }
}

}  // namespace collectives::detail
