// SPDX-License-Identifier: BSD-3-Clause
// gather_binomial — every rank of a binomial tree collects its subtree's blocks and passes them
// to its parent in one message; the root ends with every block. The mirror of scatter_binomial.
//
// Steps:   the tree of kit/binomial_tree.hpp, in which every subtree is an interval of ranks,
//          so a subtree's blocks land as one contiguous range of the root's buffer for any root.
//          Children are heard smallest subtree first. 4 ranks, root 1 (bR = rank R's block):
//            step 0: 0 → 1  b0     3 → 2  b3
//            step 1: 2 → 1  b2 b3
// Cost:    ⌈log p⌉α + (p−1)/p·nβ, n the whole array at the root: it receives every block but its
//          own once, and the tree is ⌈log p⌉ deep.
// Order:   no reduction.
// Limits:  none. Any root, with no rotation at the root (see scatter_binomial).
// Memory:  root and leaves none (the root receives straight into recv, leaves send straight from
//          send); an inner rank holds its subtree's blocks until passed on: (end − first)·n,
//          at most (p−1)·n.
// Ref:     MPICH gather_intra_binomial; Chan, Heimlich, Purkayastha, van de Geijn,
//          "Collective communication: theory, practice, and experience" (2007).

#include "algorithms/gather/gather.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void gather_binomial_blocks(const transport& net, const binomial_tree& tree, const block_partition& blocks,
                            std::size_t elem_size, std::byte* subtree_data) {
  const auto range_bytes = [&](int first, int end) { return blocks.length(first, end - first) * elem_size; };
  const std::size_t base = blocks.offset(tree.first);
  for (auto child = tree.children.rbegin(); child != tree.children.rend(); ++child) {
    const std::size_t bytes = range_bytes(child->first, child->end);
    const trace_blocks mark({}, {child->first, child->end - child->first}, blocks.parts());
    if (bytes > 0)
      net.recv(child->rank, subtree_data + (blocks.offset(child->first) - base) * elem_size, bytes);
  }
  const std::size_t held = range_bytes(tree.first, tree.end);
  const trace_blocks mark({tree.first, tree.end - tree.first}, {}, blocks.parts());
  if (tree.parent >= 0 && held > 0) net.send(tree.parent, subtree_data, held);
}

void gather_tree(const call& c, int radix) {
  if (c.count == 0) return;
  const std::size_t bytes = c.bytes(c.count);
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const binomial_tree tree(c.rank(), c.size(), c.root, radix);
  const block_partition blocks(c.count * static_cast<std::size_t>(c.size()), c.size());
  if (tree.parent < 0) {
    copy_bytes(c.block(c.recv, c.rank()), c.send, bytes);
    gather_binomial_blocks(c.net, tree, blocks, c.elem.size, c.recv);
  } else if (tree.children.empty()) {
    // A leaf's subtree is its own block.
    const trace_blocks mark({c.rank(), 1}, {}, c.size());
    c.net.send(tree.parent, c.send, bytes);
  } else {
    // Every non-root rank is the first rank of its subtree, so its own block leads the range.
    scratch subtree = make_scratch(bytes * static_cast<std::size_t>(tree.end - tree.first));
    copy_bytes(subtree.get(), c.send, bytes);
    gather_binomial_blocks(c.net, tree, blocks, c.elem.size, subtree.get());
  }
}

void gather_binomial(const call& c) { gather_tree(c, 2); }

}  // namespace collectives::detail
