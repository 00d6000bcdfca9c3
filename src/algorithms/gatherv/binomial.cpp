// SPDX-License-Identifier: BSD-3-Clause
// gatherv_binomial — gather_binomial for blocks of any size: the root first hands the inner ranks
// of the tree their subtrees' counts, then every rank passes its subtree's blocks to its parent
// in one message.
//
// Steps:   binomial_subtree_counts: the counts go down the tree (they exist only at the root, as in
//          MPI), to the ranks that have children; then gather_binomial_blocks over the blocks packed
//          in rank order (every subtree is an interval of ranks, so its blocks are one contiguous
//          range). 4 ranks, root 1 (bR = rank R's block, cR its count):
//            counts: 1 → 2  c2 c3
//            data:   0 → 1  b0     3 → 2  b3;   then 2 → 1  b2 b3
//          Empty ranges are not sent: a subtree whose blocks are all empty costs no data message.
// Cost:    ⌈log p⌉α + (N − b_root)β + counts: ⌈log p⌉α + 8(p−1)β, at the root (N = all blocks); the
//          counts go down the tree first.
// Order:   no reduction.
// Limits:  none: any counts (zeros included), any root. Displacements that are not packed in rank
//          order cost the root one local pass (below).
// Memory:  an inner rank holds its subtree's blocks until passed on (at most N − b_root) and its
//          subtree's counts; the root receives straight into recv when the blocks are packed in rank
//          order, else into a packed copy of N elements that it then spreads to the displacements.
// Ref:     gather_binomial; MPICH gather_intra_binomial; MPI 4.0 §6.5 (MPI_Gatherv).

#include "algorithms/gather/gather.hpp"
#include "algorithms/gatherv/gatherv.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

std::vector<std::size_t> binomial_subtree_counts(const transport& net, const binomial_tree& tree,
                                                 const block_layout* at_root, std::size_t own) {
  std::vector<std::size_t> counts(static_cast<std::size_t>(net.size()), 0);
  const auto subtree = [&](int first, int end) {
    return std::pair{counts.data() + first, static_cast<std::size_t>(end - first) * sizeof(std::size_t)};
  };
  if (tree.parent < 0) {
    counts = at_root->counts;
  } else if (tree.children.empty()) {
    counts[static_cast<std::size_t>(net.rank())] = own;
    return counts;
  } else {
    const auto [where, bytes] = subtree(tree.first, tree.end);
    net.recv(tree.parent, where, bytes);
  }
  for (const binomial_tree::child& child : tree.children) {
    if (child.end - child.first <= 1) continue;  // a leaf knows its own count
    const auto [where, bytes] = subtree(child.first, child.end);
    net.send(child.rank, where, bytes);
  }
  return counts;
}

void gatherv_binomial(const call& c) {
  const std::size_t own = c.bytes(c.count);
  if (c.size() == 1) {
    copy_bytes(c.recv + c.bytes(c.recv_blocks->displ(0)), c.send, own);
    return;
  }
  const binomial_tree tree(c.rank(), c.size(), c.root);
  const std::vector<std::size_t> counts = binomial_subtree_counts(c.net, tree, c.recv_blocks, c.count);
  const block_partition blocks = block_partition::of_lengths(counts);
  if (tree.parent < 0) {
    const block_layout& layout = *c.recv_blocks;
    const bool packed = layout.packed();
    scratch copy = packed ? nullptr : make_scratch(c.bytes(blocks.count()));
    std::byte* all = packed ? c.recv : copy.get();
    copy_bytes(all + c.bytes(blocks.offset(c.rank())), c.send, own);
    gather_binomial_blocks(c.net, tree, blocks, c.elem.size, all);
    if (!packed) unpack_blocks(c.recv, all, layout, c.elem.size, 0, c.size());
  } else if (tree.children.empty()) {
    if (own > 0) c.net.send(tree.parent, c.send, own);
  } else {
    // Every non-root rank is the first rank of its subtree, so its own block leads the range.
    scratch subtree = make_scratch(c.bytes(blocks.length(tree.first, tree.end - tree.first)));
    copy_bytes(subtree.get(), c.send, own);
    gather_binomial_blocks(c.net, tree, blocks, c.elem.size, subtree.get());
  }
}

}  // namespace collectives::detail
