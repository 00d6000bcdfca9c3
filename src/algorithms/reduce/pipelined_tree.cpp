// SPDX-License-Identifier: BSD-3-Clause
// reduce_pipelined_tree — the vector flows in segments up a binary tree: each rank folds its
// (at most two) children's segment into its own and passes the sum to its parent while the next
// segment is on its way. The broadcast pipelined_tree run backwards, for long vectors on many
// ranks.
//
// Steps:   cut the vector into S segments of `segment` elements (the last one shorter). For
//          k = 0 … S−1, every rank with children receives segment k of its first child's sum and
//          folds in its own input, receives its second child's and folds that in, then sends the
//          result to its parent in the tree of kit/binary_tree.hpp; a leaf sends its input's
//          segment. The root's sums land in recv. 7 ranks, root 0 (0 ← 1, 4;  1 ← 2, 3;
//          4 ← 5, 6), one segment: 2→1, 5→4;  3→1, 6→4;  1→0 (x1 + x2 + x3);  4→0.
//          Deadlock-free with synchronous sends: a rank's send of segment k waits only for its
//          parent, which receives it before anything of segment k + 1.
// Cost:    (2⌊log p⌋ + 3(S − 1))(α + nβ/S) + 2(⌊log p⌋ + S − 1)·nγ/S, S segments of 32 KiB, when
//          every send waits for its receiver (an inner rank receives twice and sends once per
//          segment); about 3nβ + 2nγ for S ≫ log p, against log p·(nβ + nγ) for binomial and
//          2nβ + nγ plus 2 log p latencies for rabenseifner.
// Order:   children by the tree, relative to the root: commutative ops only.
// Limits:  none; any root. The segment is the pipeline's (kit/segment.hpp:
//          COLLECTIVES_PIPELINE_SEGMENT_BYTES; default 32 KiB, the chain's 64). A vector of one segment is a plain
//          binary tree, 2·⌊log p⌋ message times deep: binomial is the better choice there.
// Memory:  two segments on inner ranks (a child's segment and the running sum), one at the root
//          (its sums land in recv); none at leaves.
// Ref:     Open MPI coll_base_reduce binary tree with segments (ompi_coll_base_reduce_intra_binary);
//          Chan, Heimlich, Purkayastha, van de Geijn, "Collective communication: theory,
//          practice, and experience" (2007).

#include <algorithm>

#include "algorithms/reduce/reduce.hpp"
#include "kit/binary_tree.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"
#include "kit/segment.hpp"

namespace collectives::detail {

void reduce_pipelined_tree(const call& c) {
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, c.bytes(c.count));
    return;
  }
  const binary_tree tree(c.rank(), c.size(), c.root);
  const std::size_t segment = pipeline_segment_elements("reduce", c.rank(), c.elem.size, tree_segment_bytes);
  const bool root = tree.parent < 0, leaf = tree.children[0] < 0;
  // The running sum of a segment: recv at the root, a segment of scratch elsewhere; `landing`
  // takes a child's segment when the sum cannot (the second child, or the first at a root
  // reducing in place, whose input sits in recv).
  const std::size_t most = c.bytes(std::min(segment, c.count));  // the largest segment
  scratch own_sum = root || leaf ? nullptr : make_scratch(most);
  scratch landing = leaf ? nullptr : make_scratch(most);
  for (std::size_t first = 0; first < c.count; first += segment) {
    const std::size_t elements = std::min(segment, c.count - first), bytes = c.bytes(elements);
    const std::byte* input = c.send + c.bytes(first);
    if (leaf) {
      c.net.send(tree.parent, input, bytes);
      continue;
    }
    std::byte* sum = root ? c.recv + c.bytes(first) : own_sum.get();
    if (sum == input) {  // a root in place: its input already is the running sum
      c.net.recv(tree.children[0], landing.get(), bytes);
      combine(*c.op, landing.get(), sum, elements);
    } else {
      c.net.recv(tree.children[0], sum, bytes);
      combine(*c.op, input, sum, elements);
    }
    if (tree.children[1] >= 0) {
      c.net.recv(tree.children[1], landing.get(), bytes);
      combine(*c.op, landing.get(), sum, elements);
    }
    if (!root) c.net.send(tree.parent, sum, bytes);
  }
}

}  // namespace collectives::detail
