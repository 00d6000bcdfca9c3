// SPDX-License-Identifier: BSD-3-Clause
// broadcast_bine — a binomial-like tree whose partners sit at Swing's short-cut distances
// instead of powers of two, so fewer of its messages travel far: ⌈log p⌉ steps.
//
// Steps:   the tree of kit/bine_tree.hpp: a rank receives the whole vector from its parent, then
//          sends it to its children, step by step (distances …, 11, 5, 3, 1, 1 from the root's
//          rank). 4 ranks, root 0:
//            step 0: 0 → 3            (distance −1)
//            step 1: 0 → 1     3 → 2  (distance 1)
//          Not a power of two: the ranks rotated so the root is a member of pof2_fold's group,
//          each folded-out rank receives from its partner in one extra step at the end.
// Cost:    ⌈log p⌉·(α + nβ), the fold's step included: log₂ q steps over the power-of-two
//          group of q ranks, + (α + nβ) for the fold when p ≠ q.
// Order:   no reduction.
// Limits:  none; any root. Latency-optimal like binomial; what differs is which ranks talk.
// Memory:  none extra: every rank receives straight into its buffer.
// Ref:     De Sensi et al., "Bine Trees: Enhancing Collective Operations by
//          Optimizing Communication Locality", SC 2025 (arXiv 2508.17311), its small broadcast.

#include "algorithms/broadcast/broadcast.hpp"
#include "kit/bine_tree.hpp"

namespace collectives::detail {

void broadcast_bine(const call& c) {
  if (c.count == 0 || c.size() == 1) return;
  const bine_tree tree(c.rank(), c.size(), c.root);
  const std::size_t bytes = c.bytes(c.count);
  if (tree.parent >= 0) c.net.recv(tree.parent, c.recv, bytes);
  for (const bine_tree::link& child : tree.children) c.net.send(child.rank, c.recv, bytes);
}

}  // namespace collectives::detail
