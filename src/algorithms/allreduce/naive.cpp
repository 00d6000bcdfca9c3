// SPDX-License-Identifier: BSD-3-Clause
// allreduce_naive — reduce to rank 0, then broadcast the result from rank 0.
//
// Steps:   reduce_naive (root 0) into recv; broadcast_naive of recv.
// Cost:    (p−1)·(α + nβ + nγ) + (p−1)·(α + nβ) = 2(p−1)α + 2(p−1)·nβ + (p−1)·nγ.
// Order:   exact rank order: correct for non-commutative ops; every rank gets rank 0's bits.
// Limits:  none. In place (send == recv) is handled by reduce_naive.
// Memory:  rank 0: reduce_naive's receive block (and accumulator when in place).
// Ref:     the identity allreduce = reduce + broadcast.

#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/reduce/reduce.hpp"

namespace collectives::detail {

// Both steps take the call as it is, without a copy per step: reduce_naive reads what allreduce
// passes, and broadcast_naive reads only net, recv, count, elem and root. The root is the call's
// (0 for allreduce, which has none; any root gives every rank the same bits).
void allreduce_naive(const call& c) {
  if (c.count == 0) return;
  reduce_naive(c);
  broadcast_naive(c);
}

}  // namespace collectives::detail
