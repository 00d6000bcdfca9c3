// SPDX-License-Identifier: BSD-3-Clause
// scatter_binomial — the root hands each child of a binomial tree its whole subtree's blocks in
// one message; every inner rank keeps its own block and forwards its children's sub-ranges.
//
// Steps:   the tree of kit/binomial_tree.hpp, in which every subtree is an interval of ranks,
//          so a subtree's blocks are one contiguous range of the root's buffer for any root.
//          4 ranks, root 1 (bR = rank R's block):
//            step 0: 1 → 2  b2 b3          (1 keeps [0,2), 2 holds [2,4))
//            step 1: 1 → 0  b0     2 → 3  b3
// Cost:    ⌈log p⌉α + (p−1)/p·nβ, n the whole array at the root: it sends every block but its own
//          once, and the tree is ⌈log p⌉ deep.
// Order:   no reduction.
// Limits:  none. Any root, with no rotation of the root's buffer: the classic tree over ranks
//          relative to the root would make the subtree holding ranks p−1 and 0 wrap around the
//          end of the buffer, and the root would need a rotated p·n copy.
// Memory:  root and leaves none (the root sends straight from send, leaves receive straight into
//          recv); an inner rank holds its subtree's blocks until forwarded: (end − first)·n,
//          at most (p−1)·n.
// Ref:     MPICH scatter_intra_binomial; Chan, Heimlich, Purkayastha, van de Geijn,
//          "Collective communication: theory, practice, and experience" (2007).

#include "algorithms/scatter/scatter.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void scatter_binomial_blocks(const transport& net, const binomial_tree& tree, const block_partition& blocks,
                             std::size_t elem_size, const std::byte* root_data, std::byte* subtree_data) {
  const auto range_bytes = [&](int first, int end) { return blocks.length(first, end - first) * elem_size; };
  const std::size_t base = blocks.offset(tree.first);
  const std::size_t held = range_bytes(tree.first, tree.end);
  if (tree.parent >= 0 && held > 0) {
    const trace_blocks mark({}, {tree.first, tree.end - tree.first}, blocks.parts());
    net.recv(tree.parent, subtree_data, held);
  }
  const std::byte* data = tree.parent >= 0 ? subtree_data : root_data;
  for (const binomial_tree::child& child : tree.children) {
    const std::size_t bytes = range_bytes(child.first, child.end);
    const trace_blocks mark({child.first, child.end - child.first}, {}, blocks.parts());
    if (bytes > 0) net.send(child.rank, data + (blocks.offset(child.first) - base) * elem_size, bytes);
  }
}

void scatter_tree(const call& c, int radix) {
  if (c.count == 0) return;
  const std::size_t bytes = c.bytes(c.count);
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const binomial_tree tree(c.rank(), c.size(), c.root, radix);
  const block_partition blocks(c.count * static_cast<std::size_t>(c.size()), c.size());
  if (tree.parent < 0) {
    scatter_binomial_blocks(c.net, tree, blocks, c.elem.size, c.send, nullptr);
    copy_bytes(c.recv, c.block(c.send, c.rank()), bytes);
  } else if (tree.children.empty()) {
    // A leaf's subtree is its own block.
    const trace_blocks mark({}, {c.rank(), 1}, c.size());
    c.net.recv(tree.parent, c.recv, bytes);
  } else {
    // Every non-root rank is the first rank of its subtree, so its own block leads the range.
    scratch subtree = make_scratch(bytes * static_cast<std::size_t>(tree.end - tree.first));
    scatter_binomial_blocks(c.net, tree, blocks, c.elem.size, nullptr, subtree.get());
    copy_bytes(c.recv, subtree.get(), bytes);
  }
}

void scatter_binomial(const call& c) { scatter_tree(c, 2); }

}  // namespace collectives::detail
