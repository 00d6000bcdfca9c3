// SPDX-License-Identifier: BSD-3-Clause
// allgather_bruck — dissemination: the number of blocks a rank holds doubles every step, so
// ⌈log p⌉ steps suffice for any p; a final local rotation puts the blocks in rank order.
//
// Steps:   rank r keeps its blocks rotated: position j of recv holds the block of rank r+j.
//          At step k (d = 2^k) it sends its first min(d, p−d) positions to r−d and receives
//          as many from r+d into positions d, d+1, … (the last step is partial when p is not
//          a power of two). Then recv is rotated by r so that position i holds block i.
//            p = 4, positions 0..3 of rank r hold blocks of r, r+1, r+2, r+3:
//            start:   r0 [0 . . .]  r1 [1 . . .]  r2 [2 . . .]  r3 [3 . . .]
//            d = 1:   r0 [0 1 . .]  r1 [1 2 . .]  r2 [2 3 . .]  r3 [3 0 . .]
//            d = 2:   r0 [0 1 2 3]  r1 [1 2 3 0]  r2 [2 3 0 1]  r3 [3 0 1 2]
//            rotate:  every rank  [0 1 2 3]
// Cost:    ⌈log p⌉α + (p−1)/p·nβ + local rotation, n the N-byte result: the rotation is a local
//          pass over N bytes.
// Order:   no reduction.
// Limits:  none; any p (the last step sends only the p−d blocks still missing).
// Memory:  recv is the working buffer; the rotation parks the shorter of its two parts,
//          min(r, p−r) blocks, in scratch (rotate_bytes).
// Ref:     Bruck, Ho, Kipnis, Upfal, Weathersby, "Efficient algorithms for all-to-all
//          communications in multiport message-passing systems", IEEE TPDS 8(11), 1997.

#include <algorithm>

#include "algorithms/allgather/allgather.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgather_bruck(const call& c) {
  if (c.count == 0) return;
  const int p = c.size(), rank = c.rank();
  const std::size_t block = c.bytes(c.count);
  copy_bytes(c.recv, c.send, block);
  if (p == 1) return;

  // Blocks held so far occupy positions [0, d): pass them on to r−d, take r+d's in after them.
  for (int d = 1; d < p; d *= 2) {
    const std::size_t bytes = block * static_cast<std::size_t>(std::min(d, p - d));
    c.net.exchange((rank - d + p) % p, c.recv, bytes, (rank + d) % p, c.block(c.recv, d), bytes);
  }

  // Position j holds block r+j: rotating right by r brings block i to position i.
  std::byte* const end = c.block(c.recv, p);
  rotate_bytes(c.recv, end - block * static_cast<std::size_t>(rank), end);
}

}  // namespace collectives::detail
