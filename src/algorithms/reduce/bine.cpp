// SPDX-License-Identifier: BSD-3-Clause
// reduce_bine — partial results flow up the Bine tree of broadcast_bine, each rank folding in
// its children's results; the root ends with the reduction of every rank's vector after
// ⌈log p⌉ steps.
//
// Steps:   the tree of kit/bine_tree.hpp, run bottom-up: a rank starts from its own vector,
//          folds in its children's results in the reverse of the broadcast's order (the
//          smallest subtree, at distance 1, first), then sends its result to its parent.
//          4 ranks, root 0 (xa+b = xa ∘ xb in some order):
//            step 0: 1 → 0  x1     2 → 3  x2       0: x0+1         3: x3+2
//            step 1: 3 → 0  x3+2                   0: x0+1+3+2
//          Not a power of two: the ranks rotated so the root is a member of pof2_fold's group,
//          each folded-out rank first hands its vector to its partner, which folds it in.
// Cost:    ⌈log p⌉·(α + nβ + nγ), the fold's step included: log₂ q steps over the
//          power-of-two group of q ranks, + (α + nβ + nγ) for the fold when p ≠ q.
// Order:   a subtree is no interval of ranks, so operands meet out of rank order: commutative
//          ops only.
// Limits:  none; any root. Handles send == recv at the root for compositions in place.
// Memory:  one n-byte block on inner ranks other than the root, where the partial result
//          grows (the root's is recv), plus one where the later children's results land on
//          ranks with more than one child (the first child's lands in the partial result, but
//          at a root in place, whose input already fills recv).
// Ref:     De Sensi et al., "Bine Trees: Enhancing Collective Operations by Optimizing
//          Communication Locality", SC 2025 (arXiv 2508.17311), its small reduce.

#include "algorithms/reduce/reduce.hpp"
#include "kit/bine_tree.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_bine(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const bine_tree tree(c.rank(), c.size(), c.root);
  if (tree.children.empty()) {
    c.net.send(tree.parent, c.send, bytes);
    return;
  }
  // The result so far lies in `acc` (recv at the root), or still in this rank's input while
  // acc is null: the first child's result lands in acc and the input is folded into it, which
  // saves copying the input; later children land in `landing`.
  scratch own_acc = tree.parent >= 0 ? make_scratch(bytes) : nullptr;
  std::byte* const home = own_acc ? own_acc.get() : c.recv;
  std::byte* acc = c.send == home ? home : nullptr;  // in place at the root: the input is in recv
  const bool lands_apart = tree.children.size() > 1 || acc;
  scratch landing = lands_apart ? make_scratch(bytes) : nullptr;
  for (auto child = tree.children.rbegin(); child != tree.children.rend(); ++child) {
    if (!acc) {
      c.net.recv(child->rank, home, bytes);
      combine(*c.op, c.send, home, c.count);
      acc = home;
    } else {
      c.net.recv(child->rank, landing.get(), bytes);
      combine(*c.op, landing.get(), acc, c.count);
    }
  }
  if (tree.parent >= 0) c.net.send(tree.parent, acc, bytes);
}

}  // namespace collectives::detail
