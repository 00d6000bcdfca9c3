// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatter_naive — reduce the whole p·n vector to rank 0, then scatter its blocks.
//
// Steps:   reduce_naive (root 0) of the p·n-element send into a temporary at rank 0;
//          scatter_naive of that temporary from rank 0.
// Cost:    (p−1)(α + nβ + nγ) + (p−1)(α + n/p·β), n the whole vector: the reduce to rank 0, then
//          the scatter of its blocks.
// Order:   exact rank order (reduce_naive): correct for non-commutative ops.
// Limits:  none.
// Memory:  rank 0: the p·n-element reduced vector plus reduce_naive's receive block.
// Ref:     the identity reduce_scatter = reduce + scatter.

#include "algorithms/reduce/reduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "algorithms/scatter/scatter.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_scatter_naive(const call& c) {
  if (c.count == 0) return;
  const std::size_t total = c.count * static_cast<std::size_t>(c.size());
  scratch reduced = c.rank() == 0 ? make_scratch(c.bytes(total)) : nullptr;
  reduce_naive({c.net, c.send, reduced.get(), total, c.elem, c.op, 0});
  scatter_naive({c.net, reduced.get(), c.recv, c.count, c.elem, nullptr, 0});
}

}  // namespace collectives::detail
