// SPDX-License-Identifier: BSD-3-Clause
// broadcast_pipelined_tree — the vector flows in segments down a binary tree: each rank forwards a
// segment to its (at most two) children while the next one is on its way. The pipeline of
// `pipeline` with a depth of log p instead of p − 1, for long vectors on many ranks.
//
// Steps:   cut the vector into S segments of `segment` elements (the last one shorter). For
//          k = 0 … S−1, every rank but the root receives segment k from its parent in the tree
//          of kit/binary_tree.hpp, then sends it to its first child, then to its second.
//          7 ranks, root 0 (0 → 1, 4;  1 → 2, 3;  4 → 5, 6), S = 2 (s0 s1), one message a tick:
//            t0: 0→1 s0
//            t1: 0→4 s0   1→2 s0
//            t2: 0→1 s1   1→3 s0   4→5 s0
//            t3: 0→4 s1   1→2 s1   4→6 s0
//            t4:          1→3 s1   4→5 s1
//            t5:                   4→6 s1
//          Deadlock-free with synchronous sends: a rank's send of segment k waits only for its
//          child, which posts that receive right after forwarding segment k−1, and leaves only
//          receive.
// Cost:    (2⌊log p⌋ + 3(S − 1))(α + nβ/S), S segments of 32 KiB
//          (`COLLECTIVES_PIPELINE_SEGMENT_BYTES`), when every send waits for its receiver (an inner
//          rank receives a segment and sends it twice before it takes the next one); about 3nβ for
//          S ≫ log p against log p·nβ for binomial, and log p against p − 1 hops of latency for
//          pipeline. Sends that return once their message is buffered (below the eager limit) let a
//          rank take the next segment while the two it sent are under way: then its link, two
//          segments out per segment in, sets the pace (2nβ).
// Order:   no reduction.
// Limits:  none; any root. The segment is the pipeline's (kit/segment.hpp:
//          COLLECTIVES_PIPELINE_SEGMENT_BYTES; default 32 KiB, the chain's 64). A vector of one segment is a plain
//          binary tree, 2·⌊log p⌋ message times deep: binomial is the better choice there.
// Memory:  none extra: segments travel straight between the ranks' buffers.
// Ref:     Open MPI coll_base_bcast binary tree with segments (ompi_coll_base_bcast_intra_bintree);
//          Chan, Heimlich, Purkayastha, van de Geijn, "Collective communication: theory,
//          practice, and experience" (2007).

#include <algorithm>

#include "algorithms/broadcast/broadcast.hpp"
#include "kit/binary_tree.hpp"
#include "kit/segment.hpp"

namespace collectives::detail {

void broadcast_pipelined_tree(const call& c) {
  if (c.count == 0 || c.size() == 1) return;
  const binary_tree tree(c.rank(), c.size(), c.root);
  const std::size_t segment = pipeline_segment_elements("broadcast", c.rank(), c.elem.size, tree_segment_bytes);
  for (std::size_t first = 0; first < c.count; first += segment) {
    std::byte* data = c.recv + c.bytes(first);
    const std::size_t bytes = c.bytes(std::min(segment, c.count - first));
    if (tree.parent >= 0) c.net.recv(tree.parent, data, bytes);
    for (const int child : tree.children)
      if (child >= 0) c.net.send(child, data, bytes);
  }
}

}  // namespace collectives::detail
