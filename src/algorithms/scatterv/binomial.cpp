// SPDX-License-Identifier: BSD-3-Clause
// scatterv_binomial — scatter_binomial for blocks of any size: the root hands the inner ranks of
// the tree their subtrees' counts, then each child its whole subtree's blocks in one message.
//
// Steps:   binomial_subtree_counts: the counts go down the tree (they exist only at the root, as in
//          MPI), to the ranks that have children; then scatter_binomial_blocks over the blocks
//          packed in rank order (every subtree is an interval of ranks, so its blocks are one
//          contiguous range). 4 ranks, root 1 (bR = rank R's block, cR its count):
//            counts: 1 → 2  c2 c3
//            data:   1 → 2  b2 b3;   then 1 → 0  b0,  2 → 3  b3
//          Empty ranges are not sent: a subtree whose blocks are all empty costs no data message.
// Cost:    ⌈log p⌉α + (N − b_root)β + counts: ⌈log p⌉α + 8(p−1)β, at the root (N = all blocks); the
//          counts go down the tree first.
// Order:   no reduction.
// Limits:  none: any counts (zeros included), any root. Displacements that are not packed in rank
//          order cost the root one local pass (below).
// Memory:  an inner rank holds its subtree's blocks until forwarded (at most N − b_root) and its
//          subtree's counts; the root sends straight from send when the blocks are packed in rank
//          order, else from a packed copy of N elements.
// Ref:     scatter_binomial; MPICH scatter_intra_binomial; MPI 4.0 §6.6 (MPI_Scatterv).

#include "algorithms/gatherv/gatherv.hpp"
#include "algorithms/scatter/scatter.hpp"
#include "algorithms/scatterv/scatterv.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void scatterv_binomial(const call& c) {
  const std::size_t own = c.bytes(c.count);
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send + c.bytes(c.send_blocks->displ(0)), own);
    return;
  }
  const binomial_tree tree(c.rank(), c.size(), c.root);
  const std::vector<std::size_t> counts = binomial_subtree_counts(c.net, tree, c.send_blocks, c.count);
  const block_partition blocks = block_partition::of_lengths(counts);
  if (tree.parent < 0) {
    const block_layout& layout = *c.send_blocks;
    const bool packed = layout.packed();
    scratch copy = packed ? nullptr : make_scratch(c.bytes(blocks.count()));
    if (!packed) pack_blocks(copy.get(), c.send, layout, c.elem.size, 0, c.size());
    const std::byte* all = packed ? c.send : copy.get();
    scatter_binomial_blocks(c.net, tree, blocks, c.elem.size, all, nullptr);
    copy_bytes(c.recv, all + c.bytes(blocks.offset(c.rank())), own);
  } else if (tree.children.empty()) {
    if (own > 0) c.net.recv(tree.parent, c.recv, own);
  } else {
    // Every non-root rank is the first rank of its subtree, so its own block leads the range.
    scratch subtree = make_scratch(c.bytes(blocks.length(tree.first, tree.end - tree.first)));
    scatter_binomial_blocks(c.net, tree, blocks, c.elem.size, nullptr, subtree.get());
    copy_bytes(c.recv, subtree.get(), own);
  }
}

}  // namespace collectives::detail
