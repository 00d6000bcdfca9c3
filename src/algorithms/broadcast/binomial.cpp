// SPDX-License-Identifier: BSD-3-Clause
// broadcast_binomial — every rank that has the vector sends it on to a new rank at each step,
// doubling the ranks that hold it: ⌈log p⌉ steps.
//
// Steps:   the tree of kit/binomial_tree.hpp: a rank receives the whole vector from its parent,
//          then sends it to its children, largest subtree first. 4 ranks, root 1:
//            step 0: 1 → 2
//            step 1: 1 → 0     2 → 3
// Cost:    ⌈log p⌉·(α + nβ).
// Order:   no reduction.
// Limits:  none; any root. Latency-optimal; for long vectors pipeline and scatter_allgather
//          move fewer bytes on the critical path.
// Memory:  none extra: every rank receives straight into its buffer.
// Ref:     MPICH bcast_intra_binomial; Chan, Heimlich, Purkayastha, van de Geijn,
//          "Collective communication: theory, practice, and experience" (2007).

#include "algorithms/broadcast/broadcast.hpp"
#include "kit/binomial_tree.hpp"

namespace collectives::detail {

void broadcast_tree(const call& c, int radix) {
  if (c.count == 0 || c.size() == 1) return;
  const binomial_tree tree(c.rank(), c.size(), c.root, radix);
  const std::size_t bytes = c.bytes(c.count);
  if (tree.parent >= 0) c.net.recv(tree.parent, c.recv, bytes);
  for (const binomial_tree::child& child : tree.children) c.net.send(child.rank, c.recv, bytes);
}

void broadcast_binomial(const call& c) { broadcast_tree(c, 2); }

}  // namespace collectives::detail
