// SPDX-License-Identifier: BSD-3-Clause
// gather_bine — every rank of a Bine tree collects its subtree's blocks and passes them to its
// parent in one message; the root ends with every block. The mirror of scatter_bine.
//
// Steps:   the tree of kit/bine_interval_tree.hpp: partners |ρ(s)| = 1, 1, 3, 5, 11, … ranks
//          apart in alternating directions, so most messages travel less far than a binomial
//          tree's 2^s; every subtree is a circular interval of ranks. 4 ranks, root 0
//          (bR = rank R's block):
//            step 0: 1 → 0  b1     2 → 3  b2
//            step 1: 3 → 0  b2 b3
// Cost:    ⌈log p⌉α + (p−1)/p·nβ (+ α where a root's subtree wraps), n the whole array at the
//          root: it receives every block but its own once, in ⌈log₂ p⌉ rounds for any p (a
//          folded-out rank's message is a round of its own). The + α: when one of the root's
//          subtrees wraps from rank p−1 to 0, that child sends its run as two messages, one
//          per piece of the root's buffer.
// Order:   no reduction.
// Limits:  none. Any p, any root.
// Memory:  root and leaves none (the root receives straight into recv, leaves send straight from
//          send); an inner rank holds its subtree's blocks, laid out from its interval's first
//          rank on, so a child's run is contiguous in it and only the root ever sees a run wrap
//          (the alternative, a rotated copy at the root, would cost the root a copy of up to n/2
//          and as much scratch to save that one α): length·n/p, less than n.
// Ref:     De Sensi, Pasqualoni et al., "Bine Trees: Enhancing Collective Operations by
//          Optimizing Communication Locality", SC 2025 (arXiv 2508.17311).

#include "algorithms/gather/gather.hpp"
#include "kit/bine_interval_tree.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void gather_bine(const call& c) {
  if (c.count == 0) return;
  const std::size_t bytes = c.bytes(c.count);
  const int p = c.size();
  if (p == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const bine_interval_tree tree(c.rank(), p, c.root);
  const auto run_bytes = [&](int blocks) { return bytes * static_cast<std::size_t>(blocks); };
  if (tree.parent < 0) {
    // The root's buffer is in rank order: a child's run that wraps arrives in two pieces.
    copy_bytes(c.block(c.recv, c.rank()), c.send, bytes);
    for (const bine_interval_tree::child& child : tree.children) {
      const int head = tree.before_wrap(child.first, child.length);
      const trace_blocks mark({}, {child.first, child.length}, p);
      c.net.recv(child.rank, c.block(c.recv, child.first), run_bytes(head));
      if (head < child.length) c.net.recv(child.rank, c.recv, run_bytes(child.length - head));
    }
    return;
  }
  const trace_blocks mark_up({tree.first, tree.length}, {}, p);
  if (tree.children.empty()) {
    // A leaf's subtree is its own block.
    c.net.send(tree.parent, c.send, bytes);
    return;
  }
  scratch subtree = make_scratch(run_bytes(tree.length));
  copy_bytes(subtree.get() + run_bytes(tree.offset_of(c.rank())), c.send, bytes);
  for (const bine_interval_tree::child& child : tree.children) {
    const trace_blocks mark({}, {child.first, child.length}, p);
    c.net.recv(child.rank, subtree.get() + run_bytes(tree.offset_of(child.first)), run_bytes(child.length));
  }
  // Only the root's buffer wraps; any other parent lays its scratch out as this one does.
  const bool to_root = tree.parent == c.root;
  const int head = to_root ? tree.before_wrap(tree.first, tree.length) : tree.length;
  c.net.send(tree.parent, subtree.get(), run_bytes(head));
  if (head < tree.length)
    c.net.send(tree.parent, subtree.get() + run_bytes(head), run_bytes(tree.length - head));
}

}  // namespace collectives::detail
