// SPDX-License-Identifier: BSD-3-Clause
// allgatherv_bruck — allgather_bruck for blocks of any size: the number of blocks a rank holds
// doubles every step, so ⌈log p⌉ steps suffice for any p; a final rotation puts them in rank order.
//
// Steps:   rank r keeps its blocks rotated and packed: position j holds the block of rank r+j,
//          as long as that rank's count. At step k (d = 2^k) it sends its first min(d, p−d)
//          positions to r−d and receives as many from r+d after them (r+d's first positions are
//          r's positions d, d+1, …, so both sides know the sizes). Then the buffer is rotated so
//          that rank i's block comes i-th.
//            p = 4, positions 0..3 of rank r hold blocks of r, r+1, r+2, r+3:
//            start:   r0 [0 . . .]  r1 [1 . . .]  r2 [2 . . .]  r3 [3 . . .]
//            d = 1:   r0 [0 1 . .]  r1 [1 2 . .]  r2 [2 3 . .]  r3 [3 0 . .]
//            d = 2:   r0 [0 1 2 3]  r1 [1 2 3 0]  r2 [2 3 0 1]  r3 [3 0 1 2]
// Cost:    ⌈log p⌉α + (p−1)/p·Nβ equal + local rotation (N = all blocks); skewed counts cost up to
//          ⌈log p⌉·b_max·β more. The rotation is a local pass over N elements.
// Order:   no reduction.
// Limits:  none: any counts (empty runs travel as empty messages), any displacements.
// Memory:  the shorter of the two parts the rotation swaps, parked in scratch (rotate_bytes), plus
//          a packed copy of N elements when recv's blocks are not packed in rank order
//          (on_packed_result).
// Ref:     Bruck, Ho, Kipnis, Upfal, Weathersby, "Efficient algorithms for all-to-all
//          communications in multiport message-passing systems", IEEE TPDS 8(11), 1997;
//          Open MPI allgatherv_intra_bruck.

#include <algorithm>
#include <vector>

#include "algorithms/allgatherv/allgatherv.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgatherv_bruck(const call& c) {
  if (c.recv_blocks->total() == 0) return;
  on_packed_result(c, [&](std::byte* buf, const block_partition& blocks) {
    const int p = c.size(), rank = c.rank();
    // Byte offset of position j in the rotated order: the blocks of ranks r, r+1, …, r+j−1.
    std::vector<std::size_t> at(static_cast<std::size_t>(p) + 1, 0);
    for (int j = 0; j < p; ++j)
      at[static_cast<std::size_t>(j) + 1] =
          at[static_cast<std::size_t>(j)] + c.bytes(blocks.length((rank + j) % p));
    const auto pos = [&](int j) { return at[static_cast<std::size_t>(j)]; };
    copy_bytes(buf, c.send, c.bytes(c.count));
    for (int d = 1; d < p; d *= 2) {
      const int n = std::min(d, p - d);
      c.net.exchange((rank - d + p) % p, buf, pos(n), (rank + d) % p, buf + pos(d), pos(d + n) - pos(d));
    }
    // Positions hold ranks r … p−1, then 0 … r−1: bring 0 … r−1 to the front.
    rotate_bytes(buf, buf + pos(p - rank), buf + pos(p));
  });
}

}  // namespace collectives::detail
