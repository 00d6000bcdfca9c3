// SPDX-License-Identifier: BSD-3-Clause
// barrier_binomial — arrivals flow up a binomial tree to rank 0, the release flows back down it:
// 2⌈log p⌉ steps.
//
// Steps:   the tree of kit/binomial_tree.hpp with root 0. Up: a rank waits for an empty
//          message from each child (smallest subtree first), then reports to its parent; when
//          rank 0 has heard from its children, every rank has entered. Down: a rank waits for
//          its parent's release, then releases its children (largest subtree first), as a
//          broadcast does. 4 ranks:
//            up:    1 → 0, 3 → 2;  2 → 0
//            down:  0 → 2;  0 → 1, 2 → 3
// Cost:    2⌈log p⌉α.
// Order:   no reduction.
// Limits:  none.
// Memory:  the tree's list of children (⌈log p⌉ entries at most).
// Ref:     Hensgen, Finkel, Manber, "Two algorithms for barrier synchronization" (1988) (the
//          tree barrier); MPICH's and Open MPI's "tree" barrier.

#include "algorithms/barrier/barrier.hpp"
#include "kit/binomial_tree.hpp"

namespace collectives::detail {

void barrier_binomial(const call& c) {
  if (c.size() == 1) return;
  const binomial_tree tree(c.rank(), c.size(), 0);
  for (auto child = tree.children.rbegin(); child != tree.children.rend(); ++child)
    c.net.recv(child->rank, nullptr, 0);
  if (tree.parent >= 0) {
    c.net.send(tree.parent, nullptr, 0);
    c.net.recv(tree.parent, nullptr, 0);
  }
  for (const binomial_tree::child& child : tree.children) c.net.send(child.rank, nullptr, 0);
}

}  // namespace collectives::detail
