// SPDX-License-Identifier: BSD-3-Clause
// alltoall_bruck — ⌈log p⌉ steps for any p: at step k every block whose distance to its
// destination has bit k set moves 2^k ranks on, all in one message; local rotations around it.
//
// Steps:   rotate: position j of recv takes send-block r+j (the block travelling j ranks on).
//          For d = 1, 2, 4, … < p: pack the positions j with j & d into one message, send it to
//          r+d, receive r−d's into the same positions. A block at position j has then moved
//          j ranks, so position j of rank r holds the block rank r−j sent to r.
//          Inverse rotation: recv-block i takes position r−i (a swap of block pairs, in place).
//            block "ab" = from rank a to rank b; p = 4:
//            rotate:  r0 [00 01 02 03]  r1 [11 12 13 10]  r2 [22 23 20 21]  r3 [33 30 31 32]
//            d = 1:   r0 [00 30 02 32]  r1 [11 01 13 03]  r2 [22 12 20 10]  r3 [33 23 31 21]
//            d = 2:   r0 [00 30 20 10]  r1 [11 01 31 21]  r2 [22 12 02 32]  r3 [33 23 13 03]
//            inverse: r0 [00 10 20 30]  r1 [01 11 21 31]  r2 [02 12 22 32]  r3 [03 13 23 33]
// Cost:    ⌈log p⌉(α + n/2·β) + local packing, n the whole array: every step sends about half of
//          it, and the packing moves about (2 + ⌈log p⌉)·n bytes locally: fewer messages than
//          pairwise, more bytes; wins for small n.
// Order:   no reduction.
// Limits:  none; any p (for p not a power of two the last step just has fewer positions).
// Memory:  two buffers of at most ⌊p/2⌋ blocks (the packed message out and the one coming in);
//          recv itself is the rotated copy and both rotations work in place there.
// Ref:     Bruck, Ho, Kipnis, Upfal, Weathersby, "Efficient algorithms for all-to-all
//          communications in multiport message-passing systems", IEEE TPDS 8(11), 1997.

#include "algorithms/alltoall/alltoall.hpp"

namespace collectives::detail {

// The steps are those of Bruck's all-to-all of any radix (k_bruck.cpp), at radix 2.
void alltoall_bruck(const call& c) { alltoall_bruck_of_radix(c, 2); }

}  // namespace collectives::detail
