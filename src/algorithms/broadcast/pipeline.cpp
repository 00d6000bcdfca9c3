// SPDX-License-Identifier: BSD-3-Clause
// broadcast_pipeline — the vector flows in segments down the chain root → root+1 → … → root−1;
// each rank forwards a segment while the next one is still on its way.
//
// Steps:   cut the vector into S segments of `segment` elements (the last one shorter). For
//          k = 0 … S−1, every rank but the root receives segment k from its left neighbour,
//          then every rank but the chain's last sends it to its right neighbour. 4 ranks,
//          root 1, S = 3 (s0 s1 s2):
//            t0: 1→2 s0
//            t1: 1→2 s1   2→3 s0
//            t2: 1→2 s2   2→3 s1   3→0 s0
//            t3:          2→3 s2   3→0 s1
//            t4:                   3→0 s2
//          Deadlock-free with synchronous sends: a rank's send of segment k waits only for its
//          right neighbour, which posts that receive right after forwarding segment k−1, and the
//          chain's last rank only receives.
// Cost:    (p − 2 + S)(α + nβ/S), S segments of `COLLECTIVES_PIPELINE_SEGMENT_BYTES`
//          (default 64 KiB): close to nβ for S ≫ p, at the price of S·α.
// Order:   no reduction.
// Limits:  none; any root. The segment size is read once per process from the environment
//          variable COLLECTIVES_PIPELINE_SEGMENT_BYTES (a positive number of bytes; default
//          65536; kit/segment.hpp), rounded down to whole elements and at least one element.
//          It must be the same on every rank (e.g. `mpirun -x`); otherwise the ranks disagree on
//          message sizes and the transport reports it. A value that is not a positive integer
//          throws collectives::error before any message. A vector of one segment is a plain chain.
// Memory:  none extra: segments travel straight between the ranks' buffers.
// Ref:     Chan, Heimlich, Purkayastha, van de Geijn, "Collective communication: theory,
//          practice, and experience" (2007); Open MPI coll_base_bcast pipeline/chain.

#include <algorithm>

#include "algorithms/broadcast/broadcast.hpp"
#include "kit/segment.hpp"

namespace collectives::detail {

void broadcast_pipeline(const call& c) {
  if (c.count == 0 || c.size() == 1) return;
  const int p = c.size();
  const int position = (c.rank() - c.root + p) % p;  // place in the chain, the root at 0
  const int left = (c.rank() - 1 + p) % p, right = (c.rank() + 1) % p;
  const std::size_t segment = pipeline_segment_elements("broadcast", c.rank(), c.elem.size, chain_segment_bytes);
  for (std::size_t first = 0; first < c.count; first += segment) {
    std::byte* data = c.recv + c.bytes(first);
    const std::size_t bytes = c.bytes(std::min(segment, c.count - first));
    if (position > 0) c.net.recv(left, data, bytes);
    if (position < p - 1) c.net.send(right, data, bytes);
  }
}

}  // namespace collectives::detail
