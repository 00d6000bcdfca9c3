// SPDX-License-Identifier: BSD-3-Clause
// allgather_naive — gather to rank 0, then broadcast the whole result from rank 0.
//
// Steps:   gather_naive (root 0) into recv; broadcast_naive of the p·n-element recv.
// Cost:    2(p−1)α + (p+1)(p−1)/p·nβ, n the whole result: (p−1)(α + n/p·β) to gather the blocks,
//          (p−1)(α + nβ) to broadcast them.
// Order:   no reduction.
// Limits:  none.
// Memory:  none extra.
// Ref:     the identity allgather = gather + broadcast.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/gather/gather.hpp"

namespace collectives::detail {

void allgather_naive(const call& c) {
  if (c.count == 0) return;
  gather_naive({c.net, c.send, c.recv, c.count, c.elem, nullptr, 0});
  broadcast_naive({c.net, nullptr, c.recv, c.count * static_cast<std::size_t>(c.size()), c.elem, nullptr, 0});
}

}  // namespace collectives::detail
