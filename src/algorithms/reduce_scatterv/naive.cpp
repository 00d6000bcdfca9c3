// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatterv_naive — reduce the whole vector to rank 0, then scatter its blocks, each as
// large as its owner's count.
//
// Steps:   reduce_naive (root 0) of the N-element send into a temporary at rank 0;
//          scatterv_naive of that temporary from rank 0 by recv_counts.
// Cost:    (p−1)·(α + Nβ + Nγ) + (p−1)·α + (N − b0)·β  (N = the whole vector, b0 = rank 0's block).
// Order:   exact rank order (reduce_naive): correct for non-commutative ops.
// Limits:  none: any counts (zeros included).
// Memory:  rank 0: the N-element reduced vector plus reduce_naive's receive block.
// Ref:     the identity reduce_scatterv = reduce + scatterv (Open MPI's "non-overlapping").

#include "algorithms/reduce/reduce.hpp"
#include "algorithms/reduce_scatterv/reduce_scatterv.hpp"
#include "algorithms/scatterv/scatterv.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_scatterv_naive(const call& c) {
  const std::size_t total = c.recv_blocks->total();
  if (total == 0) return;
  scratch reduced = c.rank() == 0 ? make_scratch(c.bytes(total)) : nullptr;
  reduce_naive({c.net, c.send, reduced.get(), total, c.elem, c.op, 0});
  scatterv_naive({c.net, reduced.get(), c.recv, c.count, c.elem, nullptr, 0, c.recv_blocks, nullptr});
}

}  // namespace collectives::detail
