// SPDX-License-Identifier: BSD-3-Clause
// scatter_bine — the root hands each child of a Bine tree its whole subtree's blocks in one
// message; every inner rank keeps its own block and forwards its children's runs.
//
// Steps:   the tree of kit/bine_interval_tree.hpp run downwards (the mirror of gather_bine):
//          partners |ρ(s)| = 1, 1, 3, 5, 11, … ranks apart in alternating directions, largest
//          subtree first; every subtree is a circular interval of ranks. 4 ranks, root 0
//          (bR = rank R's block):
//            step 0: 0 → 3  b2 b3
//            step 1: 0 → 1  b1     3 → 2  b2
// Cost:    ⌈log p⌉α + (p−1)/p·nβ (+ α where a root's subtree wraps), n the whole array at the
//          root: it sends every block but its own once, in ⌈log₂ p⌉ rounds for any p (a
//          folded-out rank's message is a round of its own). The + α: when one of the root's
//          subtrees wraps from rank p−1 to 0, the root sends that run as two messages, one per
//          piece of its buffer.
// Order:   no reduction.
// Limits:  none. Any p, any root.
// Memory:  root and leaves none (the root sends straight from send, leaves receive straight into
//          recv); an inner rank holds its subtree's blocks, laid out from its interval's first
//          rank on, so a child's run is contiguous in it and only the root ever sends a run in two
//          pieces (a rotated copy at the root would save that one α at the price of a copy of up
//          to n/2 and as much scratch): length·n/p, less than n.
// Ref:     De Sensi, Pasqualoni et al., "Bine Trees: Enhancing Collective Operations by
//          Optimizing Communication Locality", SC 2025 (arXiv 2508.17311).

#include "algorithms/scatter/scatter.hpp"
#include "kit/bine_interval_tree.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void scatter_bine(const call& c) {
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
    // The root's buffer is in rank order: a child's run that wraps leaves in two pieces.
    for (auto child = tree.children.rbegin(); child != tree.children.rend(); ++child) {
      const int head = tree.before_wrap(child->first, child->length);
      const trace_blocks mark({child->first, child->length}, {}, p);
      c.net.send(child->rank, c.block(c.send, child->first), run_bytes(head));
      if (head < child->length) c.net.send(child->rank, c.send, run_bytes(child->length - head));
    }
    copy_bytes(c.recv, c.block(c.send, c.rank()), bytes);
    return;
  }
  const trace_blocks mark_down({}, {tree.first, tree.length}, p);
  if (tree.children.empty()) {
    // A leaf's subtree is its own block.
    c.net.recv(tree.parent, c.recv, bytes);
    return;
  }
  // Only the root's buffer wraps; any other parent lays its scratch out as this one does.
  scratch subtree = make_scratch(run_bytes(tree.length));
  const bool from_root = tree.parent == c.root;
  const int head = from_root ? tree.before_wrap(tree.first, tree.length) : tree.length;
  c.net.recv(tree.parent, subtree.get(), run_bytes(head));
  if (head < tree.length)
    c.net.recv(tree.parent, subtree.get() + run_bytes(head), run_bytes(tree.length - head));
  for (auto child = tree.children.rbegin(); child != tree.children.rend(); ++child) {
    const trace_blocks mark({child->first, child->length}, {}, p);
    c.net.send(child->rank, subtree.get() + run_bytes(tree.offset_of(child->first)),
               run_bytes(child->length));
  }
  copy_bytes(c.recv, subtree.get() + run_bytes(tree.offset_of(c.rank())), bytes);
}

}  // namespace collectives::detail
